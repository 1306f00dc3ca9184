package io.rpcrdma.transport;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.transport.trace.ConnectionTrace;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * The send-queue work requests of one connection outstanding by wr_id (Sends, RDMA Reads and
 * RDMA Writes), and who is told when each completes. Posting, completion and the flush of a
 * failed connection all go through here, so every buffer a work request holds comes back
 * exactly once. Posting stays within the send queue's depth ({@link SendQueueBudget}): work
 * that finds the queue full waits and is posted as completions free room.
 */
final class WorkRequests {

	private final QueuePair qp;

	private final ConnectionTrace trace;

	/** The send queue's room, and the work waiting for it. */
	private final SendQueueBudget budget;

	/** Told when waiting work could not be posted: nobody else is there to be told. */
	private final Consumer<TransportException> refused;

	/**
	 * Told when, after {@link #close()}, a refusal took the last outstanding operation: no
	 * completion will come to say that everything was given back.
	 */
	private final Runnable settled;

	/**
	 * Whether the connection failed, guarded by {@link #operations}: nothing is registered any
	 * more, so once the table is empty it stays empty and every buffer is back for good.
	 */
	private boolean closed;

	/**
	 * Outstanding work requests by wr_id, guarded by itself: a {@code Consumer<WorkCompletion>}
	 * to tell, or a SEND buffer that its completion only releases, success, failure or flush
	 * alike (no lambda per Send).
	 */
	private final LongKeyTable<Object> operations = new LongKeyTable<>(64);

	/**
	 * The last chunk-less Send posted from each SEND buffer, by the buffer's address, guarded
	 * by the same lock. A work request is immutable and may be posted again (see
	 * {@link SendWorkRequest}); its wr_id is unique while outstanding because the buffer stays
	 * leased until its completion. So a buffer that sends the same length again, as small
	 * calls do, posts the same request without allocating. One entry per buffer of the pool.
	 */
	private final LongKeyTable<SendWorkRequest> chunklessSends = new LongKeyTable<>(16);

	private final AtomicLong nextWrId = new AtomicLong(1);

	/**
	 * @param qp the queue pair, created with a send queue of {@code depth}
	 * @param trace the connection's trace
	 * @param refused told when a work request that waited for room is refused by the queue
	 * pair (its operation was told a failed completion): the connection is to fail with it
	 * @param settled told when, after {@link #close()}, a refused post took the last outstanding
	 * operation
	 */
	WorkRequests(QueuePair qp, ConnectionTrace trace, Consumer<TransportException> refused, Runnable settled) {
		this.qp = qp;
		this.trace = trace;
		this.budget = new SendQueueBudget(qp.attributes().maxSendWorkRequests());
		this.refused = refused;
		this.settled = settled;
	}

	/**
	 * @param wrId a completed work request's wr_id
	 * @return its operation, now forgotten, or {@code null} if none was registered
	 */
	Object remove(long wrId) {
		synchronized (this.operations) {
			return this.operations.remove(wrId);
		}
	}

	/**
	 * @param operation told the completion, success, failure or flush alike
	 * @return the wr_id to post the work request with
	 * @throws TransportClosedException if the connection failed: the operation was told a flush
	 */
	long register(Consumer<WorkCompletion> operation) {
		return track(operation);
	}

	/**
	 * Tracks an operation whose completion is only to release a SEND buffer, allocating nothing.
	 * @param operation a {@code Consumer<WorkCompletion>}, or a {@link RegisteredBuffer} to release
	 * @return its wr_id
	 * @throws TransportClosedException if the connection failed: the operation was told a flush
	 */
	long track(Object operation) {
		long wrId = this.nextWrId.getAndIncrement();
		synchronized (this.operations) {
			if (!this.closed) {
				this.operations.putIfAbsent(wrId, operation);
				return wrId;
			}
		}
		throw tooLate(wrId, operation);
	}

	/**
	 * A work request registered after the connection failed: the queue pair is gone and its
	 * flush is over, so the operation is told a flush here, at once, and nothing is left
	 * registered once the connection has said its buffers are back.
	 */
	private static TransportClosedException tooLate(long wrId, Object operation) {
		String why = "the connection failed before the work request was posted";
		complete(operation, new WorkCompletion().set(wrId, null, CompletionStatus.WR_FLUSH_ERR, 0, 0, false, 0, why));
		return new TransportClosedException("A work request was not posted: " + why);
	}

	@SuppressWarnings("unchecked")
	/** Tells an operation its completion: releases a SEND buffer, or calls the consumer. */
	static void complete(Object operation, WorkCompletion wc) {
		if (operation instanceof RegisteredBuffer sendBuffer) {
			sendBuffer.release();
		}
		else {
			((Consumer<WorkCompletion>) operation).accept(wc);
		}
	}

	/**
	 * @return whether the connection failed ({@link #close()}) and no work request is
	 * outstanding: none will be again, so every buffer a work request held is back for good
	 */
	boolean isSettled() {
		synchronized (this.operations) {
			return this.closed && this.operations.isEmpty();
		}
	}

	/** @return whether no work request is outstanding */
	boolean isEmpty() {
		synchronized (this.operations) {
			return this.operations.isEmpty();
		}
	}

	/**
	 * Posts a work request registered here, or, if the send queue is full or work waits
	 * already, queues it to be posted in order as completions free room; if posting fails,
	 * its operation is told a failed completion at once.
	 * @param request the request
	 * @throws TransportResourceException if the queue pair refused it
	 */
	void post(SendWorkRequest request) {
		if (!this.budget.take(request)) {
			return;
		}
		try {
			this.qp.postSend(request);
			this.trace.posted(request);
		}
		catch (RuntimeException ex) {
			TransportException failure = refuse(request, ex);
			if (this.budget.give()) {
				drain();
			}
			throw failure;
		}
	}

	/**
	 * A work request completed (success, error or flush): its slot on the send queue is free,
	 * and waiting work is posted into it. Called on the completion thread after the operation
	 * was told; never blocks.
	 */
	void completed() {
		if (this.budget.give()) {
			drain();
		}
	}

	/** Posts waiting work while there is room; this thread is the budget's drainer. */
	private void drain() {
		SendWorkRequest request;
		while ((request = this.budget.next()) != null) {
			try {
				this.qp.postSend(request);
				this.trace.posted(request);
			}
			catch (RuntimeException ex) {
				this.budget.refused();
				this.refused.accept(new TransportClosedException(
						"A work request that waited for the send queue could not be posted: "
								+ refuse(request, ex).getMessage()));
			}
		}
	}

	/** Tells a refused work request's operation a failed completion; returns the failure to report. */
	private TransportException refuse(SendWorkRequest request, RuntimeException ex) {
		Object operation;
		boolean settledNow;
		synchronized (this.operations) {
			operation = this.operations.remove(request.wrId());
			settledNow = operation != null && this.closed && this.operations.isEmpty();
		}
		TransportException failure = new TransportResourceException(
				"Posting a " + request.opcode() + " failed: " + ex.getMessage(), ex);
		if (operation != null) {
			try {
				complete(operation, new WorkCompletion().set(request.wrId(), null, CompletionStatus.GENERAL_ERR, 0, 0,
						false, 0, ex.getMessage()));
			}
			finally {
				if (settledNow) {
					this.settled.run();
				}
			}
		}
		return failure;
	}

	/**
	 * The connection failed: nothing more is registered (a late registration is told a flush
	 * at once), the work still waiting for room is never posted, and its operations are told a
	 * flush, as the queue pair tells the work it had (every buffer back exactly once).
	 */
	void close() {
		synchronized (this.operations) {
			this.closed = true;
		}
		for (SendWorkRequest request : this.budget.close()) {
			Object operation;
			synchronized (this.operations) {
				operation = this.operations.remove(request.wrId());
			}
			if (operation == null) {
				continue;
			}
			try {
				complete(operation, new WorkCompletion().set(request.wrId(), null, CompletionStatus.WR_FLUSH_ERR, 0, 0,
						false, 0, "the connection failed before the send queue had room"));
			}
			catch (RuntimeException ex) {
				// The connection has failed already; the rest must still get their buffers back.
			}
		}
	}

	/** @return the send queue's room and the work waiting for it */
	SendQueueBudget budget() {
		return this.budget;
	}

	/**
	 * The Send of {@code length} bytes from {@code buffer}, reused if it sent as many last time,
	 * with its operation registered.
	 * @throws TransportClosedException if the connection failed: the operation was told a flush
	 */
	SendWorkRequest chunklessSend(RegisteredBuffer buffer, int length, Object operation) {
		SendWorkRequest request;
		synchronized (this.operations) {
			request = this.chunklessSends.get(buffer.address());
			if (request == null || request.sgList().get(0).length() != length
					|| request.sgList().get(0).region() != buffer.region()
					|| request.sgList().get(0).offset() != buffer.offset()
					|| this.operations.get(request.wrId()) != null) {
				// The record's canonical constructor with List.of(one): no varargs array.
				request = new SendWorkRequest(this.nextWrId.getAndIncrement(), SendOpcode.SEND,
						List.of(ScatterGatherEntry.of(buffer.region(), buffer.offset(), length)), null, 0, true);
				this.chunklessSends.remove(buffer.address());
				this.chunklessSends.putIfAbsent(buffer.address(), request);
			}
			if (!this.closed) {
				this.operations.putIfAbsent(request.wrId(), operation);
				return request;
			}
		}
		throw tooLate(request.wrId(), operation);
	}

}
