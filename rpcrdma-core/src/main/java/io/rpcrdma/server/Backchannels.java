package io.rpcrdma.server;

import java.util.IdentityHashMap;
import java.util.Map;

import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.transport.BackwardCalls;

/**
 * One RPC client per connection's backward direction (RFC 8167), made when a handler first
 * asks for it and forgotten when the connection closes: every call back to one client takes
 * its XIDs from one allocator, and its pending calls fail together when the client goes.
 */
final class Backchannels {

	/**
	 * The most backward-direction calls waiting for a reply or a credit on one connection:
	 * beyond it a call fails at once (TooManyPendingCallsException) instead of queueing, so a
	 * handler that calls back in a loop is throttled by the client's grant, not by memory.
	 */
	static final int MAX_PENDING = 256;

	private final Map<BackwardCalls, RpcClient> clients = new IdentityHashMap<>();

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
