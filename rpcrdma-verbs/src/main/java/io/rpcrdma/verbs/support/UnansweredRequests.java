package io.rpcrdma.verbs.support;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The connection requests a listener has delivered and nobody has answered yet. Closing the
 * listener rejects them, as closing a listening socket resets the connections in its backlog:
 * a server that stops listening must not gain a connection afterwards from a handler that
 * answers late (the kit's {@code acceptingARequestWhoseListenerClosedFailsAndTheRequesterIsTurnedAway}).
 *
 * @param <R> the provider's connection request
 */
public final class UnansweredRequests<R> {

	private final Set<R> pending = ConcurrentHashMap.newKeySet();

	private final Consumer<R> reject;

	private volatile boolean closed;

	/**
	 * @param reject rejects one request, quietly if it was answered meanwhile
	 */
	public UnansweredRequests(Consumer<R> reject) {
		this.reject = reject;
	}

	/**
	 * Tracks a request before it goes to the handler.
	 * @param request the request
	 * @return {@code false} if the listener has closed: the request was rejected, do not deliver it
	 */
	public boolean admit(R request) {
		this.pending.add(request);
		if (this.closed && this.pending.remove(request)) {
			this.reject.accept(request);
			return false;
		}
		return true;
	}

	/**
	 * Forgets a request that was accepted, rejected or expired.
	 * @param request the request
	 */
	public void answered(R request) {
		this.pending.remove(request);
	}

	/**
	 * Rejects every request still unanswered; later ones are rejected as they arrive.
	 */
	public void close() {
		this.closed = true;
		for (R request : List.copyOf(this.pending)) {
			if (this.pending.remove(request)) {
				this.reject.accept(request);
			}
		}
	}

}
