package io.rpcrdma.oncrpc;

/**
 * A reply carries a {@code reply_stat}, {@code accept_stat}, {@code reject_stat} or
 * {@code auth_stat} value RFC 5531 §9 does not define. The reply cannot be interpreted, so the
 * client should fail the call with this xid.
 */
public final class UnknownStatusException extends OncRpcException {

	private static final long serialVersionUID = 1L;

	private final String field;

	private final int value;

	UnknownStatusException(int xid, String field, int value, String defined) {
		super(xid, "ONC RPC reply xid " + xidText(xid) + " has " + field + " " + Integer.toUnsignedString(value)
				+ ", which RFC 5531 §9 does not define (" + defined + "); the peer is faulty or the message is corrupt",
				null);
		this.field = field;
		this.value = value;
	}

	/**
	 * @return the name of the field as RFC 5531 spells it, such as {@code "accept_stat"}
	 */
	public String field() {
		return this.field;
	}

	/**
	 * @return the value found on the wire
	 */
	public int value() {
		return this.value;
	}

}
