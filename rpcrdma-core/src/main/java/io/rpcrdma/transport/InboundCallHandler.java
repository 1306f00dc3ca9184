package io.rpcrdma.transport;

/**
 * The responder's RPC layer: receives calls from a connection.
 */
@FunctionalInterface
public interface InboundCallHandler {

	/**
	 * A call arrived. Runs on the executor the server was given; must eventually use
	 * {@code replier} exactly once.
	 * @param call the call
	 * @param replier sends its reply
	 */
	void onCall(InboundCall call, ReplySender replier);

}
