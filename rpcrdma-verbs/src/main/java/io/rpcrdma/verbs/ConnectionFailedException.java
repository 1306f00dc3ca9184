package io.rpcrdma.verbs;

/**
 * A connection could not be established; {@link #eventType()} says how it failed.
 */
public class ConnectionFailedException extends RdmaException {

	private final ConnectionEventType eventType;

	/**
	 * Creates the exception.
	 * @param eventType the failure event
	 * @param message what failed and what to check
	 */
	public ConnectionFailedException(ConnectionEventType eventType, String message) {
		super(message);
		this.eventType = eventType;
	}

	/**
	 * The connection manager event that ended the attempt.
	 * @return the event type
	 */
	public ConnectionEventType eventType() {
		return this.eventType;
	}

}
