package io.rpcrdma.client;

/**
 * An {@link RpcClientPool} could not give a call a connection: none was open and too many calls
 * already waited, none opened before the call's deadline, or the pool was closed. The call was
 * not sent. When attempts to open a connection failed (the server refused or could not be
 * reached), the call fails with the subtype {@link ServerUnreachableException}, so code that
 * catches this type sees those calls too.
 */
public sealed class PoolExhaustedException extends RuntimeException permits ServerUnreachableException {

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

	/**
	 * @param call the call, as {@link PoolCall#describe()} names it
	 * @param client the client, as named in messages
	 * @param endpoint the server
	 * @param what why no connection was given, ending the sentence
	 * @return the exception for a call the pool did not send
	 */
	static PoolExhaustedException notSent(String call, String client, String endpoint, String what) {
		return new PoolExhaustedException("Could not call " + call + " through " + client + ": " + what
				+ "; the call was not sent");
	}

}
