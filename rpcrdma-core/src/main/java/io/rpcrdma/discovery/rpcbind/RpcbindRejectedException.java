package io.rpcrdma.discovery.rpcbind;

import java.net.InetSocketAddress;

/**
 * rpcbind answered, but did not run the procedure: the reply was MSG_DENIED or an accepted
 * reply other than SUCCESS (RFC 5531 §9), for example PROG_MISMATCH from a portmapper that
 * only speaks version 2.
 */
public final class RpcbindRejectedException extends RpcbindException {

	private static final long serialVersionUID = 1L;

	RpcbindRejectedException(InetSocketAddress rpcbind, String procedure, String why) {
		super("rpcbind at " + RpcbindClient.text(rpcbind) + " did not run " + procedure + ": " + why, null);
	}

}
