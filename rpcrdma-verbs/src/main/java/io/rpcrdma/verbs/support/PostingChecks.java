package io.rpcrdma.verbs.support;

import io.rpcrdma.verbs.InvalidWorkRequestException;
import io.rpcrdma.verbs.QueueFullException;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.SendWorkRequest;

/**
 * The checks every provider applies to {@code QueuePair.postSend} and {@code postRecv}, so
 * that all providers refuse the same work requests with the same messages, as
 * {@code ibv_post_send} and {@code ibv_post_recv} would: too many scatter/gather entries, a
 * send before the connection is established, a closed queue pair, a full queue.
 * <p>
 * One instance per queue pair, made when it is created, so posting allocates nothing: the
 * checks that pass only compare numbers, and a message is built only for a refusal. Where
 * and under which lock each check runs stays with the queue pair, as that is part of its
 * posting logic; the refusals that depend on the queue's state are therefore factories of
 * the exception to throw.
 */
public final class PostingChecks {

	private final int queuePairNumber;

	private final int maxSendSges;

	private final int maxReceiveSges;

	private final String sgeLimitNote;

	private final String sendQueueNote;

	/**
	 * Creates the checks of a queue pair with the messages of a software provider.
	 * @param queuePairNumber the number the messages name the queue pair by
	 * @param attributes the queue pair's attributes (its scatter/gather limits)
	 */
	public PostingChecks(int queuePairNumber, QueuePairAttributes attributes) {
		this(queuePairNumber, attributes, "", "");
	}

	/**
	 * Creates the checks of a queue pair whose provider explains its own limits.
	 * @param queuePairNumber the number the messages name the queue pair by
	 * @param attributes the queue pair's attributes (its scatter/gather limits)
	 * @param sgeLimitNote added where a message says to create the queue pair with more
	 * scatter/gather entries, e.g. {@code " (at most 4 on this provider)"}; may be empty
	 * @param sendQueueNote added where a full send queue message says to wait for
	 * completions, e.g. how unsignaled work requests retire; may be empty
	 */
	public PostingChecks(int queuePairNumber, QueuePairAttributes attributes, String sgeLimitNote,
			String sendQueueNote) {
		this.queuePairNumber = queuePairNumber;
		this.maxSendSges = attributes.maxSendSges();
		this.maxReceiveSges = attributes.maxReceiveSges();
		this.sgeLimitNote = sgeLimitNote;
		this.sendQueueNote = sendQueueNote;
	}

	/**
	 * Checks that a send work request has no more scatter/gather entries than the queue
	 * pair was created for.
	 * @param workRequest the work request
	 * @throws InvalidWorkRequestException if it has more
	 */
	public void checkSendSges(SendWorkRequest workRequest) {
		int sges = workRequest.sgList().size();
		if (sges > this.maxSendSges) {
			throw new InvalidWorkRequestException("Send work request " + workRequest.wrId() + " has " + sges
					+ " scatter/gather entries but queue pair " + this.queuePairNumber + " allows " + this.maxSendSges
					+ " (maxSendSges); split the request or create the queue pair with more" + this.sgeLimitNote);
		}
	}

	/**
	 * Checks that a receive work request has no more scatter/gather entries than the queue
	 * pair was created for.
	 * @param workRequest the work request
	 * @throws InvalidWorkRequestException if it has more
	 */
	public void checkReceiveSges(ReceiveWorkRequest workRequest) {
		int sges = workRequest.sgList().size();
		if (sges > this.maxReceiveSges) {
			throw new InvalidWorkRequestException("Receive work request " + workRequest.wrId() + " has " + sges
					+ " scatter/gather entries but queue pair " + this.queuePairNumber + " allows "
					+ this.maxReceiveSges + " (maxReceiveSges); create the queue pair with more" + this.sgeLimitNote);
		}
	}

	/**
	 * Checks that sends may be posted: not in INIT, where verbs refuses them. Receives may
	 * be posted in INIT, as a Send needs a pre-posted receive from the first message on
	 * (RFC 5666 §3.3).
	 * @param state the queue pair's state
	 * @throws QueuePairStateException in INIT
	 */
	public void checkSendable(QueuePairState state) {
		if (state == QueuePairState.INIT) {
			throw new QueuePairStateException("Queue pair " + this.queuePairNumber + " is not connected yet (INIT); "
					+ "post receives now and sends once connect or accept has established the connection");
		}
	}

	/**
	 * The refusal of a post to a closed queue pair.
	 * @return the exception to throw
	 */
	public QueuePairStateException closed() {
		return new QueuePairStateException("Queue pair " + this.queuePairNumber + " is closed; create a new one");
	}

	/**
	 * The refusal of a send to a full send queue.
	 * @param depth the send queue's depth
	 * @return the exception to throw
	 */
	public QueueFullException sendQueueFull(int depth) {
		return new QueueFullException("Send queue of queue pair " + this.queuePairNumber + " is full: " + depth
				+ " work requests outstanding (maxSendWorkRequests); wait for completions before posting more"
				+ this.sendQueueNote + ", or create the queue pair with a deeper send queue");
	}

	/**
	 * The refusal of a receive to a full receive queue.
	 * @param depth the receive queue's depth
	 * @return the exception to throw
	 */
	public QueueFullException receiveQueueFull(int depth) {
		return new QueueFullException("Receive queue of queue pair " + this.queuePairNumber + " is full: " + depth
				+ " receives outstanding (maxReceiveWorkRequests); post no more receives than the queue depth, or "
				+ "create the queue pair with a deeper receive queue");
	}

}
