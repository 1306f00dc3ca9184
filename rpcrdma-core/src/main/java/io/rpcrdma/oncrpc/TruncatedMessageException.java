package io.rpcrdma.oncrpc;

import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * A message ends before its RPC header does: the buffer is shorter than the header's own
 * lengths say. The cause tells which item was cut. RFC 5531 defines no reply to such a
 * message, so a server drops it; a client fails the call with this xid.
 */
public final class TruncatedMessageException extends OncRpcException {

	private static final long serialVersionUID = 1L;

	TruncatedMessageException(int xid, XdrTruncatedException cause) {
		super(xid, "ONC RPC message xid " + xidText(xid) + " is truncated inside its RPC header: " + cause.getMessage(),
				cause);
	}

	@Override
	public synchronized XdrTruncatedException getCause() {
		return (XdrTruncatedException) super.getCause();
	}

}
