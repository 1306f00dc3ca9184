package io.rpcrdma.client;

import java.util.Objects;

/**
 * A remote procedure call failed at the RPC level: the server refused or could not run it,
 * no reply came in time, or the connection was lost. Each subclass names one cause, and its
 * message names the program, version, procedure and endpoint.
 */
public abstract class RpcCallException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient RemoteCall call;

	protected RpcCallException(RemoteCall call, String message, Throwable cause) {
		super(message, cause);
		this.call = Objects.requireNonNull(call, "call");
	}

	/**
	 * @return the call that failed
	 */
	public RemoteCall call() {
		return this.call;
	}

	/**
	 * @return whether the server certainly did not execute the procedure, so that even a
	 * non-idempotent call may be sent again
	 */
	public boolean notExecuted() {
		return false;
	}

}
