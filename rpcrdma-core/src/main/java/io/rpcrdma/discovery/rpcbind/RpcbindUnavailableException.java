package io.rpcrdma.discovery.rpcbind;

import java.net.InetSocketAddress;

/**
 * No rpcbind could be reached at the address given: nothing listens there, the connection was
 * refused or lost, or it did not connect in time.
 */
public final class RpcbindUnavailableException extends RpcbindException {

	private static final long serialVersionUID = 1L;

	private final transient InetSocketAddress rpcbind;

	RpcbindUnavailableException(InetSocketAddress rpcbind, String what, Throwable cause) {
		super("rpcbind is not reachable at " + RpcbindClient.text(rpcbind) + " (" + what
				+ "): start it there ('apt-get install rpcbind', 'systemctl start rpcbind') or point the client at the host"
				+ " that runs it", cause);
		this.rpcbind = rpcbind;
	}

	/** @return the address that was tried */
	public InetSocketAddress rpcbind() {
		return this.rpcbind;
	}

}
