package io.rpcrdma.verbs.disni;

import java.io.IOException;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvWC;

/**
 * The adapter half of a shared completion queue: an {@code ibv_cq} with its own completion
 * channel, as {@link SharedCompletionQueue} drives it. Separate so that the polling,
 * dispatching and waiting logic runs in tests without an RDMA device.
 */
interface AdapterCompletionQueue {

	/**
	 * The holders {@link #poll()} fills; DiSNI refills them on the next poll (DiSNI issue 44).
	 * @return the array, as long as a poll batch
	 */
	IbvWC[] polled();

	/**
	 * {@code ibv_poll_cq} for one batch.
	 * @return how many holders of {@link #polled()} it filled
	 * @throws IOException if the queue is in error (it overran)
	 */
	int poll() throws IOException;

	/**
	 * {@code ibv_req_notify_cq}: the next completion raises an event on the channel.
	 * @throws IOException if the queue is in error or destroyed
	 */
	void requestNotification() throws IOException;

	/**
	 * Waits for an event on the completion channel ({@code ibv_get_cq_event}).
	 * @param millis the most to wait
	 * @return {@code true} for an event, {@code false} after the wait
	 * @throws IOException if the channel failed
	 */
	boolean awaitEvent(int millis) throws IOException;

	/**
	 * {@code ibv_ack_cq_events}; {@link #destroy()} waits for every event to be acknowledged.
	 * @param events how many
	 */
	void acknowledge(int events);

	/** Destroys the queue and its channel; its queue pairs are gone. */
	void destroy();

	/**
	 * @return the entries the queue was created with
	 */
	int capacity();

	/**
	 * @return DiSNI's queue, for {@code rdma_create_qp}; {@code null} in tests
	 */
	IbvCQ ibvCq();

}
