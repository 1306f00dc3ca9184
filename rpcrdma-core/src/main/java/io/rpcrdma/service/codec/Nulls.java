package io.rpcrdma.service.codec;

import io.rpcrdma.xdr.XdrInvalidValueException;

final class Nulls {

	private Nulls() {
	}

	/**
	 * Rejects {@code null} where XDR has no way to say "absent" (RFC 4506 has optional-data
	 * only where the type says {@code *}).
	 */
	static <V> V require(V value, String what) {
		if (value == null) {
			throw rejected(what);
		}
		return value;
	}

	/** The error for a {@code null}; callers whose {@code what} is computed build it only on failure. */
	static XdrInvalidValueException rejected(String what) {
		return new XdrInvalidValueException("null cannot be encoded as XDR " + what
				+ "; declare the value Optional<...> or annotate it @XdrOptional if it may be absent");
	}

}
