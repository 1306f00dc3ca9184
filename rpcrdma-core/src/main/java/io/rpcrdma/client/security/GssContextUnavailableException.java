package io.rpcrdma.client.security;

import io.rpcrdma.client.RemoteCall;
import io.rpcrdma.client.RpcCallException;

/**
 * The server would not create an RPCSEC_GSS context for want of room: it answered the context
 * creation call (RPCSEC_GSS_INIT or CONTINUE_INIT, RFC 2203 §5.2.2) with SYSTEM_ERR, which an
 * rpcrdma server does when this connection or this principal already holds as many contexts as
 * it allows, when its context table is full of other clients' contexts in use, or when its
 * executor is saturated. The client's credentials and the server's keytab are not in question
 * (a context the server's Kerberos refuses fails with
 * {@link io.rpcrdma.oncrpc.gss.GssFailureException} instead). No call ran.
 */
public final class GssContextUnavailableException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param call the context creation call the server answered SYSTEM_ERR
	 * @param principal the client's principal
	 * @param service the service the context was for
	 */
	public GssContextUnavailableException(RemoteCall call, String principal, String service) {
		super(call, "The server at " + call.endpoint() + " could not take a new RPCSEC_GSS context of " + principal
				+ " for " + service + " (SYSTEM_ERR to its creation): this connection or this principal holds as many"
				+ " contexts as the server allows, its context table is full of other clients' contexts in use, or its"
				+ " executor is saturated; the credentials and the server's keytab are not in question. Destroy"
				+ " contexts no longer used (RpcSecGssClient#close), retry later, or have the server's limits raised"
				+ " (rpcrdma.server.security.kerberos.contexts.*); the server's log names the limit", null);
	}

	@Override
	public boolean notExecuted() {
		return true;
	}

}
