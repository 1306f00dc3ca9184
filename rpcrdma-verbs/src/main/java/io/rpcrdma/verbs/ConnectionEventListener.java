package io.rpcrdma.verbs;

/**
 * Receives the events of one connection. Runs on a provider thread and must not block.
 */
@FunctionalInterface
public interface ConnectionEventListener {

	/** A listener that ignores events. */
	ConnectionEventListener NONE = (connection, event) -> {
	};

	/**
	 * An event happened.
	 * @param connection the connection (on a failed connect: the connection that never
	 * came up)
	 * @param event what happened
	 */
	void onEvent(RdmaConnection connection, ConnectionEvent event);

}
