package io.rpcrdma.verbs;

import java.util.List;

/**
 * A reliable connected queue pair (verbs {@code ibv_qp} of type RC, an iWARP QP): a send
 * queue and a receive queue whose work the adapter executes in posting order.
 * <p>
 * Create it from the provider, post receives while it is in {@link QueuePairState#INIT},
 * then connect or accept with it; Sends need {@link QueuePairState#RTS}. When the
 * connection fails or is disconnected the queue pair goes to
 * {@link QueuePairState#ERROR} and every outstanding work request completes with
 * {@link CompletionStatus#WR_FLUSH_ERR}. Posting methods are thread-safe and never block.
 */
public interface QueuePair extends AutoCloseable {

	/**
	 * The queue pair number, reported in completions.
	 * @return the number
	 */
	int queuePairNumber();

	/**
	 * The attributes the queue pair was created with.
	 * @return the attributes
	 */
	QueuePairAttributes attributes();

	/**
	 * The protection domain of the queue pair.
	 * @return the domain
	 */
	default ProtectionDomain protectionDomain() {
		return attributes().protectionDomain();
	}

	/**
	 * The current state.
	 * @return the state
	 */
	QueuePairState state();

	/**
	 * Posts a work request to the send queue (verbs {@code ibv_post_send}).
	 * @param workRequest the work request
	 * @throws QueueFullException if {@code maxSendWorkRequests} are outstanding
	 * @throws InvalidWorkRequestException if it has more than {@code maxSendSges} entries
	 * @throws QueuePairStateException if the queue pair is not connected yet or is closed
	 */
	void postSend(SendWorkRequest workRequest);

	/**
	 * Posts several work requests to the send queue in order; stops at the first that
	 * cannot be posted (those before it stay posted).
	 * @param workRequests the work requests
	 */
	default void postSend(List<SendWorkRequest> workRequests) {
		for (int i = 0; i < workRequests.size(); i++) {
			postSend(workRequests.get(i));
		}
	}

	/**
	 * Posts a receive buffer (verbs {@code ibv_post_recv}); allowed from
	 * {@link QueuePairState#INIT} on.
	 * @param workRequest the work request
	 * @throws QueueFullException if {@code maxReceiveWorkRequests} are outstanding
	 * @throws InvalidWorkRequestException if it has more than {@code maxReceiveSges} entries
	 * @throws QueuePairStateException if the queue pair is closed
	 */
	void postRecv(ReceiveWorkRequest workRequest);

	/**
	 * Destroys the queue pair: disconnects it if connected, flushes outstanding work
	 * requests (their completions are delivered) and frees it. Idempotent.
	 */
	@Override
	void close();

}
