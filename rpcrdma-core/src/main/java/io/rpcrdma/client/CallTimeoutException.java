package io.rpcrdma.client;

import java.time.Duration;

import io.rpcrdma.log.Durations;

/**
 * No reply arrived within the call's timeout. The server may still execute the call.
 */
public final class CallTimeoutException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	private final Duration timeout;

	public CallTimeoutException(RemoteCall call, Duration timeout) {
		super(call, "No reply to " + call + " within " + Durations.written(timeout)
				+ "; the server may be slow or unreachable, and may still execute the call", null);
		this.timeout = timeout;
	}

	/**
	 * @return the timeout that passed
	 */
	public Duration timeout() {
		return this.timeout;
	}

}
