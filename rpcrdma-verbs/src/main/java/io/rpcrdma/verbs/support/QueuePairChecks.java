package io.rpcrdma.verbs.support;

import java.util.Objects;

import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * The checks every provider applies to {@code RdmaProvider.createQueuePair}: the protection
 * domain and both completion queues must come from the same provider and be open, as a verbs
 * queue pair can only use objects of its own device context.
 */
public final class QueuePairChecks {

	private QueuePairChecks() {
	}

	/**
	 * Checks that the attributes name objects of {@code provider} that are still open.
	 * @param provider the provider creating the queue pair
	 * @param attributes the requested attributes
	 * @throws IllegalArgumentException if an object belongs to another provider
	 * @throws IllegalStateException if an object is closed
	 */
	public static void checkOwnership(RdmaProvider provider, QueuePairAttributes attributes) {
		Objects.requireNonNull(attributes, "attributes");
		if (attributes.protectionDomain().provider() != provider) {
			throw new IllegalArgumentException("The protection domain was not allocated by this " + provider.name()
					+ " provider; allocate it here");
		}
		if (attributes.protectionDomain().isClosed()) {
			throw new IllegalStateException("The protection domain is closed; allocate a new one");
		}
		checkCompletionQueue(provider, attributes.sendCompletionQueue(), "send");
		checkCompletionQueue(provider, attributes.receiveCompletionQueue(), "receive");
	}

	private static void checkCompletionQueue(RdmaProvider provider, CompletionQueue cq, String role) {
		if (cq.provider() != provider) {
			throw new IllegalArgumentException("The " + role + " completion queue was not created by this "
					+ provider.name() + " provider; create it here");
		}
		if (cq.isClosed()) {
			throw new IllegalStateException("The " + role + " completion queue is closed; create a new one");
		}
	}

}
