package io.rpcrdma.verbs;

import java.util.Objects;

/**
 * What a queue pair is created with (verbs {@code ibv_qp_init_attr} plus the RNR settings
 * of {@code ibv_qp_attr}).
 *
 * @param protectionDomain the domain whose memory the queue pair may use
 * @param sendCompletionQueue where send-queue completions go
 * @param receiveCompletionQueue where receive completions go (may be the same queue)
 * @param maxSendWorkRequests the send queue depth
 * @param maxReceiveWorkRequests the receive queue depth
 * @param maxSendSges the most scatter/gather entries per send work request
 * @param maxReceiveSges the most scatter/gather entries per receive work request
 * @param rnrPolicy the receiver-not-ready policy for this queue pair's Sends
 */
public record QueuePairAttributes(ProtectionDomain protectionDomain, CompletionQueue sendCompletionQueue,
		CompletionQueue receiveCompletionQueue, int maxSendWorkRequests, int maxReceiveWorkRequests, int maxSendSges,
		int maxReceiveSges, RnrPolicy rnrPolicy) {

	/** The default send and receive queue depth. */
	public static final int DEFAULT_QUEUE_DEPTH = 128;

	/** The default number of scatter/gather entries per work request. */
	public static final int DEFAULT_MAX_SGES = 4;

	/**
	 * Validates the attributes.
	 * @param protectionDomain the domain
	 * @param sendCompletionQueue the send completion queue
	 * @param receiveCompletionQueue the receive completion queue
	 * @param maxSendWorkRequests the send queue depth
	 * @param maxReceiveWorkRequests the receive queue depth
	 * @param maxSendSges entries per send work request
	 * @param maxReceiveSges entries per receive work request
	 * @param rnrPolicy the receiver-not-ready policy
	 */
	public QueuePairAttributes {
		Objects.requireNonNull(protectionDomain, "A queue pair needs a protection domain");
		Objects.requireNonNull(sendCompletionQueue, "A queue pair needs a send completion queue");
		Objects.requireNonNull(receiveCompletionQueue, "A queue pair needs a receive completion queue");
		Objects.requireNonNull(rnrPolicy, "rnrPolicy");
		requirePositive(maxSendWorkRequests, "maxSendWorkRequests");
		requirePositive(maxReceiveWorkRequests, "maxReceiveWorkRequests");
		requirePositive(maxSendSges, "maxSendSges");
		requirePositive(maxReceiveSges, "maxReceiveSges");
	}

	/**
	 * Default attributes: queues of {@value #DEFAULT_QUEUE_DEPTH}, {@value #DEFAULT_MAX_SGES}
	 * entries per work request, {@link RnrPolicy#DEFAULT}, one completion queue for both.
	 * @param pd the protection domain
	 * @param cq the completion queue for sends and receives
	 * @return the attributes
	 */
	public static QueuePairAttributes of(ProtectionDomain pd, CompletionQueue cq) {
		return of(pd, cq, cq);
	}

	/**
	 * Default attributes with separate completion queues.
	 * @param pd the protection domain
	 * @param sendCq the send completion queue
	 * @param receiveCq the receive completion queue
	 * @return the attributes
	 */
	public static QueuePairAttributes of(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue receiveCq) {
		return new QueuePairAttributes(pd, sendCq, receiveCq, DEFAULT_QUEUE_DEPTH, DEFAULT_QUEUE_DEPTH,
				DEFAULT_MAX_SGES, DEFAULT_MAX_SGES, RnrPolicy.DEFAULT);
	}

	/**
	 * A copy with other queue depths.
	 * @param maxSend the send queue depth
	 * @param maxReceive the receive queue depth
	 * @return the new attributes
	 */
	public QueuePairAttributes withQueueDepths(int maxSend, int maxReceive) {
		return new QueuePairAttributes(this.protectionDomain, this.sendCompletionQueue, this.receiveCompletionQueue,
				maxSend, maxReceive, this.maxSendSges, this.maxReceiveSges, this.rnrPolicy);
	}

	/**
	 * A copy with other scatter/gather limits.
	 * @param maxSend entries per send work request
	 * @param maxReceive entries per receive work request
	 * @return the new attributes
	 */
	public QueuePairAttributes withMaxSges(int maxSend, int maxReceive) {
		return new QueuePairAttributes(this.protectionDomain, this.sendCompletionQueue, this.receiveCompletionQueue,
				this.maxSendWorkRequests, this.maxReceiveWorkRequests, maxSend, maxReceive, this.rnrPolicy);
	}

	/**
	 * A copy with another RNR policy.
	 * @param policy the policy
	 * @return the new attributes
	 */
	public QueuePairAttributes withRnrPolicy(RnrPolicy policy) {
		return new QueuePairAttributes(this.protectionDomain, this.sendCompletionQueue, this.receiveCompletionQueue,
				this.maxSendWorkRequests, this.maxReceiveWorkRequests, this.maxSendSges, this.maxReceiveSges, policy);
	}

	private static void requirePositive(int value, String name) {
		if (value <= 0) {
			throw new IllegalArgumentException(name + " must be positive, got " + value);
		}
	}

}
