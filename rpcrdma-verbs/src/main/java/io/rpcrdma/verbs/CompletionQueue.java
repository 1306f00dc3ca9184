package io.rpcrdma.verbs;

/**
 * A completion queue (verbs {@code ibv_cq}): where the outcomes of work requests of one or
 * more queue pairs arrive, in the order each queue pair produced them.
 * <p>
 * Polling copies completions into caller-owned {@link WorkCompletion} holders and
 * allocates nothing. Notification follows verbs: {@link #requestNotification()} arms the
 * queue once, and the {@link CompletionHandler} runs when the next completion arrives
 * after that. Completions already queued when arming do not trigger it, so a handler
 * drains the queue, re-arms, and polls once more:
 * <pre>{@code
 * void onCompletion(CompletionQueue cq) {
 *     drain(cq);               // poll until it returns 0
 *     cq.requestNotification();
 *     drain(cq);               // catch what arrived before the re-arm
 * }
 * }</pre>
 */
public interface CompletionQueue extends AutoCloseable {

	/**
	 * The provider (device) that created this queue. Only its queue pairs may use it.
	 * @return the owning provider
	 */
	RdmaProvider provider();

	/**
	 * The number of completions the queue holds before it overruns.
	 * @return the capacity
	 */
	int capacity();

	/**
	 * Moves up to {@code completions.length} completions into the given holders, from index
	 * 0 on (verbs {@code ibv_poll_cq}). {@code null} elements are filled with new holders,
	 * so reuse the array to avoid allocation.
	 * @param completions the holders
	 * @return the number of completions moved, 0 if none
	 * @throws CompletionQueueOverrunException if completions were lost because the queue
	 * was full (a fatal error: size queues for all outstanding work requests)
	 */
	int poll(WorkCompletion[] completions);

	/**
	 * Arms the queue: the handler runs once when the next completion arrives (verbs
	 * {@code ibv_req_notify_cq}).
	 * @throws IllegalStateException if the queue was created without a handler
	 */
	void requestNotification();

	/**
	 * Whether {@link #close()} has run.
	 * @return {@code true} once closed
	 */
	boolean isClosed();

	/**
	 * Destroys the queue (verbs {@code ibv_destroy_cq}); completions still queued are
	 * dropped and later ones are discarded. Close queue pairs first. Idempotent.
	 */
	@Override
	void close();

}
