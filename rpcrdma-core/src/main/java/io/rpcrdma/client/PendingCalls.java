package io.rpcrdma.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;

import io.rpcrdma.transport.LongKeyTable;

/**
 * The calls on one connection that await replies, by xid (RFC 5531 §9: the xid alone matches a
 * reply to its call), and the recycled {@link ClientCall}s they run in.
 * <p>
 * Each call has a deadline, run by one shared {@link CallTimer}; its expiry fails the call with
 * {@link CallTimeoutException}. However a call ends — reply, failure, timeout, cancellation,
 * {@link #failAll connection loss} — it leaves the table and its deadline is cancelled, and a
 * reply arriving after that is dropped and counted. The table is bounded: a call beyond
 * {@code maxPending} is refused with {@link TooManyPendingCallsException}.
 * <p>
 * The table is the transport's {@link LongKeyTable} keyed by the xid, so neither a lookup
 * nor an insertion allocates; one lock guards it, held for a few array slots at a time. A call's
 * {@link ReplyCallback} is told on the thread that ends it (the transport's receive thread,
 * the timer thread) and must not block.
 */
public final class PendingCalls {

	/** The most ended calls kept for reuse. */
	private static final int MAX_FREE = 1024;

	private final String endpoint;

	private final int maxPending;

	private final CallTimer timer;

	private final DeadlineWheel wheel;

	private final XidAllocator xids;

	private final LongAdder lateReplies = new LongAdder();

	private final LongAdder timeouts = new LongAdder();

	/** Guarded by this: xid → call. */
	private final LongKeyTable<ClientCall> calls = new LongKeyTable<>(64);

	private volatile int size;

	/** Guarded by this: calls ready for reuse. */
	private ClientCall[] free = new ClientCall[16];

	private int freeCount;

	private volatile Throwable lost;

	/** Calls that timed out since the server last answered one (a late reply counts). */
	private final AtomicInteger unanswered = new AtomicInteger();

	/** Told once when {@link #unanswered} reaches {@link #unansweredLimit}; {@code null} for never. */
	private volatile IntConsumer stoppedAnswering;

	private volatile int unansweredLimit;

	/**
	 * @param endpoint the server, named in exception messages
	 * @param maxPending the most calls that may await replies at once
	 * @param timer runs the deadlines
	 */
	public PendingCalls(String endpoint, int maxPending, CallTimer timer) {
		this(endpoint, maxPending, timer, null);
	}

	/**
	 * @param endpoint the server, named in exception messages
	 * @param maxPending the most calls that may await replies at once
	 * @param timer runs the deadlines
	 * @param firstXid the first xid to allocate (tests; normally random)
	 */
	PendingCalls(String endpoint, int maxPending, CallTimer timer, int firstXid) {
		this(endpoint, maxPending, timer, Integer.valueOf(firstXid));
	}

	private PendingCalls(String endpoint, int maxPending, CallTimer timer, Integer firstXid) {
		this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
		if (maxPending < 1) {
			throw new IllegalArgumentException("maxPending must be at least 1, not " + maxPending);
		}
		this.maxPending = maxPending;
		this.timer = Objects.requireNonNull(timer, "timer");
		this.wheel = (timer instanceof DeadlineWheel deadlines) ? deadlines : null;
		this.xids = (firstXid != null) ? new XidAllocator(firstXid, this::containsLocked)
				: new XidAllocator(this::containsLocked);
	}

	/**
	 * Allocates an xid and registers a call under it, before the call is sent; its deadline
	 * starts now.
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number
	 * @param name what the caller calls the procedure, named in exceptions, or {@code null}
	 * @param timeout how long to wait for the reply
	 * @param callback told how the call ends
	 * @return the call, with its xid to put in the call header; it is the transport's
	 * {@link io.rpcrdma.transport.CallCompletion}
	 * @throws TooManyPendingCallsException if {@code maxPending} calls already await replies
	 * @throws ConnectionLostException if the connection was lost ({@link #failAll})
	 */
	ClientCall register(int program, int version, int procedure, String name, Duration timeout, ReplyCallback callback) {
		Objects.requireNonNull(timeout, "timeout");
		Objects.requireNonNull(callback, "callback");
		synchronized (this) {
			Throwable lostCause = this.lost;
			if (lostCause != null) {
				throw new ConnectionLostException(new RemoteCall(this.endpoint, 0, program, version, procedure, name),
						lostCause);
			}
			if (this.size >= this.maxPending) {
				throw new TooManyPendingCallsException(new RemoteCall(this.endpoint, 0, program, version, procedure, name),
						this.maxPending);
			}
			ClientCall call;
			if (this.freeCount > 0) {
				call = this.free[--this.freeCount];
				this.free[this.freeCount] = null;
			}
			else {
				call = new ClientCall(this, this.wheel);
			}
			int xid = this.xids.next();
			call.start(xid, program, version, procedure, name, timeout, callback);
			this.calls.putIfAbsent(xid, call);
			this.size = this.calls.size();
			// Under the lock, so nothing can end the call before its deadline is in place.
			call.scheduleDeadline(this.timer);
			return call;
		}
	}

	/**
	 * Returns which call awaits an xid, for example to name it in an exception.
	 * @param xid the xid
	 * @return the call, or {@code null} if none awaits this xid
	 */
	public synchronized RemoteCall call(int xid) {
		ClientCall call = this.calls.get(xid);
		return (call != null) ? call.remoteCall() : null;
	}

	/**
	 * The connection is lost: fails every pending call at once with a
	 * {@link ConnectionLostException} naming the call and endpoint, and refuses later
	 * registrations the same way.
	 * @param cause why the connection was lost
	 * @return the number of calls failed
	 */
	public int failAll(Throwable cause) {
		Throwable why = (cause != null) ? cause : new IllegalStateException("connection closed");
		List<ClientCall> pending = new ArrayList<>();
		synchronized (this) {
			if (this.lost == null) {
				this.lost = why;
			}
			this.calls.forEach(pending::add);
		}
		// Told outside the lock: callbacks may do anything that does not block.
		int failed = 0;
		for (ClientCall call : pending) {
			if (call.connectionLost(why)) {
				failed++;
			}
		}
		return failed;
	}

	/**
	 * @return the number of calls awaiting replies
	 */
	public int size() {
		return this.size;
	}

	/**
	 * @return replies dropped because no call awaited their xid
	 */
	public long lateReplies() {
		return this.lateReplies.sum();
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

	/**
	 * Tells {@code then}, once, when {@code limit} calls in a row have timed out with no reply
	 * from the server in between, on time or late: the connection is up but the server has
	 * stopped answering, as Linux's RPC client concludes after a major timeout, when it closes
	 * the transport and connects again.
	 * @param limit timeouts in a row; 0 never tells
	 * @param then told the count
	 */
	void whenUnanswered(int limit, IntConsumer then) {
		if (limit < 0) {
			throw new IllegalArgumentException("The timeouts in a row that close a connection must be 0 (never) or more, not "
					+ limit);
		}
		this.stoppedAnswering = then;
		this.unansweredLimit = limit;
	}

	/** The server answered a call: on time or late, it is alive. */
	void answered() {
		// One volatile read on the reply path while all is well.
		if (this.unanswered.get() != 0) {
			this.unanswered.set(0);
		}
	}

	void countLateReply() {
		this.lateReplies.increment();
		answered();
	}

	void countTimeout() {
		this.timeouts.increment();
		int inARow = this.unanswered.incrementAndGet();
		IntConsumer then = this.stoppedAnswering;
		if (then != null && inARow == this.unansweredLimit) {
			then.accept(inARow);
		}
	}

	/** Takes an ended call out of the table. */
	synchronized void remove(ClientCall call) {
		if (this.calls.remove(call.xid(), call)) {
			this.size = this.calls.size();
		}
	}

	/** A call nobody holds any more: kept for the next registration. */
	synchronized void recycle(ClientCall call) {
		if (this.freeCount == this.free.length) {
			if (this.freeCount >= Math.min(MAX_FREE, this.maxPending)) {
				return;
			}
			this.free = Arrays.copyOf(this.free, this.freeCount * 2);
		}
		this.free[this.freeCount++] = call;
	}

	/** Under the lock (the xid allocator asks from inside {@link #register}). */
	private boolean containsLocked(int xid) {
		return this.calls.get(xid) != null;
	}

}
