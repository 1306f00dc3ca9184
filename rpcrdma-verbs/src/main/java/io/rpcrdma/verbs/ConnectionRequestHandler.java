package io.rpcrdma.verbs;

/**
 * Answers connection requests arriving at an {@link RdmaListener}. Runs on a provider
 * thread and must not block; it may answer the request later from another thread.
 */
@FunctionalInterface
public interface ConnectionRequestHandler {

	/**
	 * A peer asks to connect.
	 * @param request the request, to accept or reject
	 */
	void onConnectionRequest(ConnectionRequest request);

}
