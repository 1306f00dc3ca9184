package io.rpcrdma.client;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * The calls on one connection that await replies: xid → {@link PendingCall}, matched when
 * the reply arrives (RFC 5531 §9: the xid alone matches a reply to its call).
 * <p>
 * Each call has a deadline, run by one shared {@link CallTimer}; its expiry completes the call
 * with {@link CallTimeoutException}. However a call completes — reply, timeout, cancellation,
 * {@link #failAll connection loss} — its entry leaves the table and its deadline is cancelled,
 * and a reply arriving after that is dropped and counted. The table is bounded: a call beyond
 * {@code maxPending} is refused with {@link TooManyPendingCallsException}.
 * <p>
 * A call's future is completed on the thread that delivers the reply (the transport's receive
 * thread) or fires the deadline, and so are its non-async dependents: they must not block.
 *
 * @param <R> what the transport delivers as a reply (for example the decoded header with the
 * buffer holding the results)
 */
public final class PendingCalls<R> {

	private final String endpoint;

	private final int maxPending;

	private final CallTimer timer;

	private final Map<Integer, Entry<R>> calls = new ConcurrentHashMap<>();

	private final XidAllocator xids;

	private final AtomicInteger outstanding = new AtomicInteger();

	private final LongAdder lateReplies = new LongAdder();

	private final LongAdder timeouts = new LongAdder();

	private volatile Throwable lost;

	/**
	 * @param endpoint the server, named in exception messages
	 * @param maxPending the most calls that may await replies at once
	 * @param timer runs the deadlines
	 */
	public PendingCalls(String endpoint, int maxPending, CallTimer timer) {
		this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
		if (maxPending < 1) {
			throw new IllegalArgumentException("maxPending must be at least 1, not " + maxPending);
		}
		this.maxPending = maxPending;
		this.timer = Objects.requireNonNull(timer, "timer");
		this.xids = new XidAllocator(this.calls::containsKey);
	}

	/**
	 * @param endpoint the server, named in exception messages
	 * @param maxPending the most calls that may await replies at once
	 * @param timer runs the deadlines
	 * @param firstXid the first xid to allocate (tests; normally random)
	 */
	PendingCalls(String endpoint, int maxPending, CallTimer timer, int firstXid) {
		this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
		this.maxPending = maxPending;
		this.timer = Objects.requireNonNull(timer, "timer");
		this.xids = new XidAllocator(firstXid, this.calls::containsKey);
	}

	/**
	 * Allocates an xid and registers a call under it, before the call is sent.
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number
	 * @param timeout how long to wait for the reply
	 * @return the pending call, with its xid to put in the call header
	 * @throws TooManyPendingCallsException if {@code maxPending} calls already await replies
	 * @throws ConnectionLostException if the connection was lost ({@link #failAll})
	 */
	public PendingCall<R> register(int program, int version, int procedure, Duration timeout) {
		return register(program, version, procedure, null, timeout);
	}

	/**
	 * Allocates an xid and registers a named call under it, before the call is sent.
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number
	 * @param name what the caller calls the procedure, named in exceptions, or {@code null}
	 * @param timeout how long to wait for the reply
	 * @return the pending call, with its xid to put in the call header
	 * @throws TooManyPendingCallsException if {@code maxPending} calls already await replies
	 * @throws ConnectionLostException if the connection was lost ({@link #failAll})
	 */
	public PendingCall<R> register(int program, int version, int procedure, String name, Duration timeout) {
		Objects.requireNonNull(timeout, "timeout");
		if (this.outstanding.incrementAndGet() > this.maxPending) {
			this.outstanding.decrementAndGet();
			throw new TooManyPendingCallsException(new RemoteCall(this.endpoint, 0, program, version, procedure, name),
					this.maxPending);
		}
		Entry<R> entry;
		int xid;
		do {
			xid = this.xids.next();
			entry = new Entry<>(this, new PendingCall<>(new RemoteCall(this.endpoint, xid, program, version, procedure, name),
					new CompletableFuture<>()), timeout);
		}
		while (this.calls.putIfAbsent(xid, entry) != null);
		Entry<R> registered = entry;
		Throwable lostCause = this.lost;
		if (lostCause != null) {
			// failAll may have swept the table before this entry went in.
			remove(registered);
			throw new ConnectionLostException(registered.call.call(), lostCause);
		}
		// The entry is its own completion action and deadline task: no lambda per call.
		registered.call.reply().whenComplete(registered);
		if (!registered.call.reply().isDone()) {
			registered.deadline = this.timer.schedule(timeout, registered);
			if (registered.call.reply().isDone()) {
				registered.deadline.cancel();
			}
		}
		return registered.call;
	}

	/**
	 * Delivers a reply.
	 * @param xid the reply's xid
	 * @param reply the reply
	 * @return {@code true} if a pending call took it; {@code false} if no call awaits this xid
	 * (it timed out, was cancelled, or never existed): the reply was dropped and counted, and
	 * the caller releases its buffer
	 */
	public boolean complete(int xid, R reply) {
		// Leave the table before completing, so whoever sees the completion sees the table
		// without the call.
		Entry<R> entry = this.calls.get(xid);
		if (entry == null || !remove(entry) || !entry.call.reply().complete(reply)) {
			this.lateReplies.increment();
			return false;
		}
		return true;
	}

	/**
	 * Returns which call awaits an xid, for example to name it in an exception.
	 * @param xid the xid
	 * @return the call, or {@code null} if none awaits this xid
	 */
	public RemoteCall call(int xid) {
		Entry<R> entry = this.calls.get(xid);
		return (entry != null) ? entry.call.call() : null;
	}

	/**
	 * Fails one call, for example because its reply could not be decoded.
	 * @param xid the call's xid
	 * @param failure the exception to complete it with
	 * @return whether a pending call was failed
	 */
	public boolean fail(int xid, Throwable failure) {
		Entry<R> entry = this.calls.get(xid);
		return entry != null && remove(entry) && entry.call.reply().completeExceptionally(failure);
	}

	/**
	 * The connection is lost: fails every pending call at once with a
	 * {@link ConnectionLostException} naming the call and endpoint, and refuses later
	 * registrations the same way.
	 * @param cause why the connection was lost
	 * @return the number of calls failed
	 */
	public int failAll(Throwable cause) {
		this.lost = (cause != null) ? cause : new IllegalStateException("connection closed");
		int failed = 0;
		for (Entry<R> entry : this.calls.values()) {
			if (remove(entry)
					&& entry.call.reply().completeExceptionally(new ConnectionLostException(entry.call.call(), cause))) {
				failed++;
			}
		}
		return failed;
	}

	/**
	 * @return the number of calls awaiting replies
	 */
	public int size() {
		return this.outstanding.get();
	}

	/**
	 * @return replies dropped because no call awaited their xid
	 */
	public long lateReplies() {
		return this.lateReplies.sum();
	}

	/** Counts a reply dropped by a caller of this table because no call awaited it. */
	void countLateReply() {
		this.lateReplies.increment();
	}

	/**
	 * @return calls that timed out
	 */
	public long timeouts() {
		return this.timeouts.sum();
	}

	/**
	 * @return the server these calls went to
	 */
	public String endpoint() {
		return this.endpoint;
	}

	/** Takes a call out of the table; true for the one caller that did. */
	private boolean remove(Entry<R> entry) {
		if (this.calls.remove(entry.call.xid(), entry)) {
			this.outstanding.decrementAndGet();
			return true;
		}
		return false;
	}

	/**
	 * One call in the table: its completion action (leave the table, cancel the deadline) and
	 * its deadline task (fail with {@link CallTimeoutException}).
	 */
	private static final class Entry<R> implements Runnable, BiConsumer<R, Throwable> {

		final PendingCalls<R> table;

		final PendingCall<R> call;

		final Duration timeout;

		volatile CallTimer.Timeout deadline;

		Entry(PendingCalls<R> table, PendingCall<R> call, Duration timeout) {
			this.table = table;
			this.call = call;
			this.timeout = timeout;
		}

		/** The deadline passed. */
		@Override
		public void run() {
			if (this.table.remove(this) && this.call.reply().completeExceptionally(new CallTimeoutException(this.call.call(),
					this.timeout))) {
				this.table.timeouts.increment();
			}
		}

		/** The call completed, one way or another. */
		@Override
		public void accept(R reply, Throwable failure) {
			this.table.remove(this);
			CallTimer.Timeout scheduled = this.deadline;
			if (scheduled != null) {
				scheduled.cancel();
			}
		}

	}

}
