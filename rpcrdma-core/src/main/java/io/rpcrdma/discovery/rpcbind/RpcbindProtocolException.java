package io.rpcrdma.discovery.rpcbind;

import java.net.InetSocketAddress;

/**
 * What came back from rpcbind is not a well-formed answer to the call: a record too large or
 * cut short (RFC 5531 §11), a reply for another xid, a header or result that does not decode.
 * The connection is closed.
 */
public final class RpcbindProtocolException extends RpcbindException {

	private static final long serialVersionUID = 1L;

	RpcbindProtocolException(InetSocketAddress rpcbind, String procedure, String what, Throwable cause) {
		super("rpcbind at " + RpcbindClient.text(rpcbind) + " answered " + procedure + " with a malformed reply: " + what,
				cause);
	}

}
