package io.rpcrdma.client;

/**
 * A call was not sent because every attempt to open a connection to its server failed while it
 * waited (the server refused, as a port nobody listens on does, or could not be reached), up to
 * the pool's retry policy's attempts. The cause is the last attempt's failure, such as a
 * {@link java.net.ConnectException}. A subtype of {@link PoolExhaustedException}, which such
 * calls failed with before, so that handlers catching that type still catch them.
 */
public final class ServerUnreachableException extends PoolExhaustedException {

	private static final long serialVersionUID = 1L;

	private final String client;

	private final String address;

	private final int failedAttempts;

	/**
	 * @param client the client, as named in messages ("client 'greeter'")
	 * @param call the call not sent, as named in messages
	 * @param address the server
	 * @param failedAttempts the connection attempts that failed in a row, the last included
	 * @param waited how long the call waited, written
	 * @param cause the last attempt's failure
	 */
	public ServerUnreachableException(String client, String call, String address, int failedAttempts, String waited,
			Throwable cause) {
		super("Could not call " + call + " through " + client + ": no connection to " + address + " could be opened ("
				+ failedAttempts + ((failedAttempts == 1) ? " attempt" : " attempts") + " in a row failed; the call waited "
				+ waited + " and was not sent). Is the server running and listening there? The last attempt: "
				+ describe(cause), cause);
		this.client = client;
		this.address = address;
		this.failedAttempts = failedAttempts;
	}

	private static String describe(Throwable cause) {
		if (cause == null) {
			return "no cause given";
		}
		String message = cause.getMessage();
		return (message != null) ? message : cause.getClass().getSimpleName();
	}

	/** @return the client, as named in the message */
	public String client() {
		return this.client;
	}

	/** @return the server that could not be reached */
	public String address() {
		return this.address;
	}

	/** @return the connection attempts that had failed in a row when the call gave up */
	public int failedAttempts() {
		return this.failedAttempts;
	}

}
