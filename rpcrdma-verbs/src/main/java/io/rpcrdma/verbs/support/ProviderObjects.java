package io.rpcrdma.verbs.support;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;

/**
 * What a provider has opened and whether the provider is closed, so that every provider
 * refuses work once closed with the same message and closing it closes everything it opened
 * in the same order.
 * <p>
 * The order is the one in which verbs tears a device context down, each kind before the
 * kinds it uses: listeners first (no new connections), then connections (the peers learn of
 * the disconnect), queue pairs (their work is flushed), completion queues, and protection
 * domains last (their regions deregistered), as {@code ibv_destroy_cq} and
 * {@code ibv_dealloc_pd} fail while a queue pair still uses them.
 * <p>
 * The objects tell their provider when they close, and the provider passes it on here, so
 * that a long-lived provider does not keep closed objects.
 */
public final class ProviderObjects {

	private final String providerName;

	private final Set<RdmaListener> listeners = ConcurrentHashMap.newKeySet();

	private final Set<RdmaConnection> connections = ConcurrentHashMap.newKeySet();

	private final Set<QueuePair> queuePairs = ConcurrentHashMap.newKeySet();

	private final Set<CompletionQueue> completionQueues = ConcurrentHashMap.newKeySet();

	private final Set<ProtectionDomain> protectionDomains = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Creates the (empty) objects of an open provider.
	 * @param providerName the provider's name, as {@code RdmaProviders.open} takes it
	 */
	public ProviderObjects(String providerName) {
		this.providerName = providerName;
	}

	/**
	 * Checks that the provider is open, before it opens anything.
	 * @throws IllegalStateException if it is closed
	 */
	public void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException("The " + this.providerName + " provider is closed; open a new one with "
					+ "RdmaProviders.open(\"" + this.providerName + "\")");
		}
	}

	/**
	 * Whether the provider is closed.
	 * @return {@code true} once {@link #close()} was called
	 */
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Closes the provider: everything it opened, in the order of verbs teardown.
	 * @return {@code false} if it was closed before, and nothing was done
	 */
	public boolean close() {
		if (this.closed) {
			return false;
		}
		this.closed = true;
		closeAll(this.listeners, RdmaListener::close);
		closeAll(this.connections, RdmaConnection::disconnect);
		closeAll(this.queuePairs, QueuePair::close);
		closeAll(this.completionQueues, CompletionQueue::close);
		closeAll(this.protectionDomains, ProtectionDomain::close);
		return true;
	}

	private static <T> void closeAll(Set<T> objects, Consumer<T> close) {
		// A copy, as each object leaves the set while it closes.
		for (T object : List.copyOf(objects)) {
			close.accept(object);
		}
	}

	/**
	 * A protection domain was allocated.
	 * @param pd the domain
	 */
	public void protectionDomainOpened(ProtectionDomain pd) {
		this.protectionDomains.add(pd);
	}

	/**
	 * A protection domain was closed.
	 * @param pd the domain
	 */
	public void protectionDomainClosed(ProtectionDomain pd) {
		this.protectionDomains.remove(pd);
	}

	/**
	 * A completion queue was created.
	 * @param cq the queue
	 */
	public void completionQueueOpened(CompletionQueue cq) {
		this.completionQueues.add(cq);
	}

	/**
	 * A completion queue was closed.
	 * @param cq the queue
	 */
	public void completionQueueClosed(CompletionQueue cq) {
		this.completionQueues.remove(cq);
	}

	/**
	 * A queue pair was created.
	 * @param qp the queue pair
	 */
	public void queuePairOpened(QueuePair qp) {
		this.queuePairs.add(qp);
	}

	/**
	 * @return the queue pairs open now
	 */
	public int queuePairCount() {
		return this.queuePairs.size();
	}

	/**
	 * A queue pair was closed.
	 * @param qp the queue pair
	 */
	public void queuePairClosed(QueuePair qp) {
		this.queuePairs.remove(qp);
	}

	/**
	 * A listener was bound.
	 * @param listener the listener
	 */
	public void listenerOpened(RdmaListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * A listener was closed.
	 * @param listener the listener
	 */
	public void listenerClosed(RdmaListener listener) {
		this.listeners.remove(listener);
	}

	/**
	 * A connection began (actively or passively).
	 * @param connection the connection
	 */
	public void connectionOpened(RdmaConnection connection) {
		this.connections.add(connection);
	}

	/**
	 * A connection ended.
	 * @param connection the connection
	 */
	public void connectionClosed(RdmaConnection connection) {
		this.connections.remove(connection);
	}

}
