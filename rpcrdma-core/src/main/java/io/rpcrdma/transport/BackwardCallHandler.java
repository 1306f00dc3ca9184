package io.rpcrdma.transport;

/**
 * Serves the calls a responder sends back to this requester on the same connection
 * (RFC 8167 §3.2, "backward direction"). Installed on an {@link RpcRdmaClientConnection} when
 * it connects; the RPC layer implements it with a dispatcher of the programs the client
 * serves to its server.
 */
@FunctionalInterface
public interface BackwardCallHandler {

	/**
	 * A backward-direction call arrived. Runs on the connection's completion thread and must
	 * not block: decode, hand the work to an executor, and answer through
	 * {@link BackwardCall#reply} or {@link BackwardCall#drop} from any thread, exactly once.
	 * @param call the call, its RPC message copied out of the receive buffer
	 */
	void onBackwardCall(BackwardCall call);

}
