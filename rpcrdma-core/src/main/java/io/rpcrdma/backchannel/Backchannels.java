package io.rpcrdma.backchannel;

import java.util.IdentityHashMap;
import java.util.Map;

import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.server.BackwardDirectionUnavailableException;
import io.rpcrdma.server.ServerCall;
import io.rpcrdma.transport.BackwardCalls;

/**
 * One RPC client per connection's backward direction (RFC 8167), made when a handler first
 * asks for it and forgotten when the connection closes: every call back to one client takes
 * its XIDs from one allocator, and its pending calls fail together when the client goes.
 * <p>
 * A server's handler reaches the client that called it with {@link #callerOf(ServerCall)}.
 * This class lives above the server and the client, so that the server hands out only the
 * transport's {@link BackwardCalls} and never makes a client itself. The clients of all
 * servers of the process are held here, each only while its connection lives.
 */
public final class Backchannels {

	private static final Backchannels SHARED = new Backchannels();

	/**
	 * The most backward-direction calls waiting for a reply or a credit on one connection:
	 * beyond it a call fails at once (TooManyPendingCallsException) instead of queueing, so a
	 * handler that calls back in a loop is throttled by the client's grant, not by memory.
	 */
	static final int MAX_PENDING = 256;

	private final Map<BackwardCalls, RpcClient> clients = new IdentityHashMap<>();

	/**
	 * The client that sent a call, as a callee: calls on the returned caller travel back on
	 * the connection the call came on (RFC 8167, the backward direction) to the programs the
	 * client serves. Usable during and after the call while the connection lives; once it is
	 * gone, calls fail with {@code ConnectionLostException}.
	 * @param call the call being served
	 * @return a caller of the client's programs
	 * @throws BackwardDirectionUnavailableException if the connection has no backward
	 * direction (the server was started without backward-direction credits, or the call did
	 * not come over RPC-over-RDMA)
	 */
	public static RpcCaller callerOf(ServerCall call) {
		return SHARED.callerFor(call.backwardCalls());
	}

	RpcCaller callerFor(BackwardCalls calls) {
		RpcClient client;
		synchronized (this.clients) {
			client = this.clients.get(calls);
			if (client != null) {
				return client;
			}
			client = new RpcClient(calls, "the client at " + calls.peerAddress()
					+ " (backward direction: programs a client serves as CallbackServices or @RpcCallbackService beans)", MAX_PENDING,
					CallTimer.shared());
			this.clients.put(calls, client);
		}
		calls.closeFuture().whenComplete((ignored, error) -> forget(calls));
		return client;
	}

	private void forget(BackwardCalls calls) {
		synchronized (this.clients) {
			this.clients.remove(calls);
		}
	}

	/** @return connections whose backward direction was used and that are still open */
	int size() {
		synchronized (this.clients) {
			return this.clients.size();
		}
	}

}
