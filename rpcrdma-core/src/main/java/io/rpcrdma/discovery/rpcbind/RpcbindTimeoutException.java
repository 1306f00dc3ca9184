package io.rpcrdma.discovery.rpcbind;

import java.net.InetSocketAddress;
import java.time.Duration;

import io.rpcrdma.log.Durations;

/**
 * rpcbind accepted the connection but did not answer a call within the deadline. The
 * connection is closed, since a late reply would otherwise be read as the next call's.
 */
public final class RpcbindTimeoutException extends RpcbindException {

	private static final long serialVersionUID = 1L;

	RpcbindTimeoutException(InetSocketAddress rpcbind, String procedure, Duration timeout, Throwable cause) {
		super("rpcbind at " + RpcbindClient.text(rpcbind) + " did not answer " + procedure + " within " + Durations.written(timeout)
				+ "; is something other than rpcbind listening there, or is it overloaded?", cause);
	}

}
