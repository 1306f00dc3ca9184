package io.rpcrdma.client;

/**
 * An {@link RpcClientPool} could not give a call a connection: none was open and too many calls
 * already waited, none opened before the call's deadline, or the pool was closed. The call was
 * not sent.
 */
public final class PoolExhaustedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what happened
	 */
	public PoolExhaustedException(String message) {
		super(message);
	}

	/**
	 * @param message what happened
	 * @param cause why no connection could be had, such as the failed attempt to open one
	 */
	public PoolExhaustedException(String message, Throwable cause) {
		super(message, cause);
	}

}
