package io.rpcrdma.verbs.siw;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongPredicate;

/**
 * One of a provider's shared I/O threads ({@link SiwIoThreads}): one {@link Selector} serving
 * many connections, which finishes what their posting threads could not write (the socket
 * full, a message too large to send inline, Read Responses owed) and closes streams after their last bytes and Terminate. Nothing it runs
 * blocks: a connection whose socket is full waits for {@code OP_WRITE}, not on this thread.
 * <p>
 * Others hand it work with {@link #execute}; timers and {@code OP_WRITE} interest belong to
 * this thread alone, so they need no lock.
 */
final class SiwIoThread implements Runnable {

	/** How often the thread looks at its members for work left without a wake-up. */
	static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/**
	 * How long a thread made without settings (tests) polls its sockets before it sleeps: the
	 * default of {@link SiwSettings#IO_POLL_MICROS}.
	 */
	static final long DEFAULT_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(SiwSettings.DEFAULT_CALLER_SPIN_MICROS);

	private static final System.Logger logger = System.getLogger(SiwIoThread.class.getName());

	private final Selector selector;

	/**
	 * What the thread also does at each tick, given the time; whether it wants ticks while it
	 * serves no connection.
	 */
	private final LongPredicate tick;

	private final Thread thread;

	private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();

	// Cleared before the tasks are drained, so that a task added after the drain wakes the
	// next select.
	private final AtomicBoolean wakeupPending = new AtomicBoolean();

	/** When the thread's select ends by itself, in {@link System#nanoTime()}'s terms. */
	private volatile long selectEnds;

	// Counted by whoever won wakeupPending; two may overlap around a select, hence roughly.
	private volatile long wakeUps;

	/** Beyond any wait: a select without a timeout. */
	private static final long NEVER = Long.MAX_VALUE / 2;

	// How long the thread polls before it sleeps (siw.io-poll-micros), when it has served a
	// ready socket or bytes are owed.
	private final long pollNanos;

	// Set by a receive path of this thread that stopped inside an FPDU or a message; this thread only.
	private boolean owed;

	// Set when a socket was ready in this turn; this thread only.
	private boolean served;

	// Whether a poll after serving is made, backing off while such polls run out (this thread only).
	private final CallerSpin afterServing;

	// Polls made for bytes owed, and those that found some; then those made after serving; this
	// thread only, read by tests.
	private volatile long owedPolls;

	private volatile long owedPollHits;

	private volatile long servedPolls;

	private volatile long servedPollHits;

	/**
	 * The longest yield that does not say every CPU is busy: a yield that lets one of this
	 * process's threads run for a while is not it; one that waits out another's scheduler
	 * slice is (as the loopback provider's engine judges).
	 */
	static final long CONTENDED_YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	// A yield between polls longer than this ends the poll; tests change it.
	private long contendedYieldNanos = CONTENDED_YIELD_NANOS;

	// Polls ended by such a yield; this thread only, read by tests.
	private volatile long contendedPolls;

	/**
	 * How long the thread does not poll at all after a yield that said every CPU is busy, as
	 * the loopback provider's engine stops spinning after such a yield. A poll on a busy host
	 * costs the call it waits for a scheduler slice (milliseconds) whenever its yield lets
	 * another thread run; this bounds that to one call in this time.
	 */
	static final long CONTENDED_HOLD_OFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	// What the poll does between tries: a yield; tests make it a long one. And how long a
	// contended yield stops polls: tests make it longer.
	private Runnable betweenPolls = Thread::yield;

	private long holdOffNanos = CONTENDED_HOLD_OFF_NANOS;

	// When the thread may poll again after a contended yield; this thread only.
	private long pollAgainAt = System.nanoTime();

	// Tasks this thread gives itself (a turn that yields, a timer's wake-up): no queue node
	// allocated for them.
	private final java.util.ArrayDeque<Runnable> ownTasks = new java.util.ArrayDeque<>();

	private final PriorityQueue<Timer> timers = new PriorityQueue<>();

	private final Set<RdmapTransmitter> members = ConcurrentHashMap.newKeySet();

	private long timerSequence;

	private volatile long shutdownDeadline;

	private volatile boolean shuttingDown;

	/**
	 * An action this thread runs at a time: made once and set again and again
	 * ({@link #schedule}), so that a connection's recurring timers (the FPDU deadline, closing) allocate nothing. At most one pending time per timer.
	 */
	static final class Timer implements Comparable<Timer> {

		private final Runnable action;

		private long at;

		private long sequence;

		private boolean pending;

		Timer(Runnable action) {
			this.action = action;
		}

		@Override
		public int compareTo(Timer other) {
			int byTime = Long.compare(this.at - other.at, 0);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

	SiwIoThread(String name, LongPredicate tick) throws IOException {
		this(name, tick, DEFAULT_POLL_NANOS);
	}

	/**
	 * @param name the thread's name
	 * @param tick what the thread also does at each tick
	 * @param pollNanos how long it polls its sockets before it sleeps, after serving a ready one
	 * or while bytes are owed ({@link #bytesOwed()}); zero for never
	 */
	SiwIoThread(String name, LongPredicate tick, long pollNanos) throws IOException {
		this.pollNanos = pollNanos;
		this.afterServing = new CallerSpin(java.time.Duration.ofNanos(pollNanos));
		this.tick = tick;
		this.selector = Selector.open();
		this.thread = new Thread(this, name);
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	/** @return the thread, for tests and for checks of who runs */
	Thread thread() {
		return this.thread;
	}

	/** @return the connections this thread serves */
	int load() {
		return this.members.size();
	}

	void join(RdmapTransmitter member) {
		this.members.add(member);
		// A thread without members waits without a timeout: it must start its looks now.
		this.selector.wakeup();
	}

	void leave(RdmapTransmitter member) {
		this.members.remove(member);
		if (this.shuttingDown) {
			this.selector.wakeup();
		}
	}

	boolean inThisThread() {
		return Thread.currentThread() == this.thread;
	}

	/**
	 * Runs {@code task} on this thread soon; from any thread, never blocks.
	 * @param task the work, which must not block
	 */
	void execute(Runnable task) {
		if (inThisThread()) {
			this.ownTasks.add(task);
			return;
		}
		this.tasks.add(task);
		if (this.wakeupPending.compareAndSet(false, true)) {
			wakeUp();
		}
	}

	/**
	 * Runs {@code task} on this thread within about {@code withinNanos}; from any thread,
	 * never blocks. The thread is woken only if its select would not end by then anyway (a
	 * timer or its look due): under load it seldom would, which spares the wake-up's system
	 * calls and context switch.
	 * @param task the work, which must not block
	 * @param withinNanos how late it may run
	 */
	void executeSoon(Runnable task, long withinNanos) {
		if (inThisThread()) {
			this.ownTasks.add(task);
			return;
		}
		this.tasks.add(task);
		if (this.selectEnds - System.nanoTime() > withinNanos && this.wakeupPending.compareAndSet(false, true)) {
			wakeUp();
		}
	}

	private void wakeUp() {
		this.wakeUps++;
		this.selector.wakeup();
	}

	/** @return how often a queued task woke the thread, roughly (not counted atomically); for tests */
	long wakeUps() {
		return this.wakeUps;
	}

	/**
	 * Runs {@code action} on this thread once {@code System.nanoTime()} reaches {@code at}; on
	 * this thread only.
	 */
	void at(long at, Runnable action) {
		schedule(new Timer(action), at);
	}

	/**
	 * Runs {@code timer}'s action once {@code System.nanoTime()} reaches {@code at}, or earlier
	 * if the timer is already pending for an earlier time (its action must then look at the
	 * time itself); on this thread only.
	 */
	void schedule(Timer timer, long at) {
		if (timer.pending) {
			if (at - timer.at >= 0) {
				return;
			}
			this.timers.remove(timer);
		}
		timer.at = at;
		timer.sequence = this.timerSequence++;
		timer.pending = true;
		this.timers.add(timer);
	}

	/**
	 * On this thread, by a receive path that read part of an FPDU or of a message and found the
	 * socket empty, or that waits for the Response to a Read Request it sent: before it sleeps,
	 * the thread polls its sockets for as long as {@code siw.io-poll-micros} says, since the
	 * bytes are on their way (without the back-off of polls after serving).
	 */
	void bytesOwed() {
		this.owed = true;
	}

	/** @return polls for bytes owed, and how many found a socket ready; for tests */
	long[] owedPolls() {
		return new long[] { this.owedPolls, this.owedPollHits };
	}

	/**
	 * For tests, before the thread starts: what the poll does between tries instead of a yield,
	 * how long one may take before it says every CPU is busy, and how long polls stop then.
	 * @param pause run on this thread between two tries
	 * @param contendedNanos the longest pause that does not end the poll
	 * @param holdOffNanos how long no poll is made after a longer one
	 */
	void betweenPolls(Runnable pause, long contendedNanos, long holdOffNanos) {
		this.betweenPolls = pause;
		this.contendedYieldNanos = contendedNanos;
		this.holdOffNanos = holdOffNanos;
	}

	/** @return polls ended by a yield that said every CPU is busy; for tests */
	long contendedPolls() {
		return this.contendedPolls;
	}

	/** @return polls after serving a ready socket, and how many found another ready; for tests */
	long[] servedPolls() {
		return new long[] { this.servedPolls, this.servedPollHits };
	}

	/**
	 * Runs {@code action} once {@code channel} takes bytes again (one shot); on this thread only.
	 * A channel closed meanwhile runs it at once: its write then fails and says why.
	 */
	void whenWritable(SelectableChannel channel, Runnable action) {
		when(channel, SelectionKey.OP_WRITE, action);
	}

	/**
	 * Runs {@code action} once {@code channel} has bytes to read, or its end (one shot); on this
	 * thread only. A channel closed meanwhile runs it at once: its read then fails.
	 */
	void whenReadable(SelectableChannel channel, Runnable action) {
		when(channel, SelectionKey.OP_READ, action);
	}

	/**
	 * Runs {@code action} once {@code channel}'s non-blocking connect has finished, or failed
	 * (one shot); on this thread only.
	 */
	void whenConnected(SelectableChannel channel, Runnable action) {
		when(channel, SelectionKey.OP_CONNECT, action);
	}

	/**
	 * Waits for {@code op} besides what else the channel waits for: a connection's receive
	 * path waits for bytes while its transmit side waits for room, on the one key.
	 */
	private void when(SelectableChannel channel, int op, Runnable action) {
		try {
			SelectionKey key = channel.keyFor(this.selector);
			if (key == null || !key.isValid()) {
				Interest interest = new Interest();
				interest.set(op, action);
				channel.register(this.selector, op, interest);
			}
			else {
				((Interest) key.attachment()).set(op, action);
				key.interestOps(key.interestOps() | op);
			}
		}
		catch (ClosedChannelException | CancelledKeyException ex) {
			execute(action);
		}
	}

	/** What a channel's key waits for: an action per operation, each run once. */
	private static final class Interest {

		private Runnable onRead;

		private Runnable onWrite;

		private Runnable onConnect;

		void set(int op, Runnable action) {
			switch (op) {
				case SelectionKey.OP_READ -> this.onRead = action;
				case SelectionKey.OP_WRITE -> this.onWrite = action;
				default -> this.onConnect = action;
			}
		}

		/** Runs and forgets the actions of the operations ready. */
		void fire(int ready, java.util.function.Consumer<Runnable> runner) {
			Runnable read = ((ready & SelectionKey.OP_READ) != 0) ? this.onRead : null;
			Runnable write = ((ready & SelectionKey.OP_WRITE) != 0) ? this.onWrite : null;
			Runnable connect = ((ready & SelectionKey.OP_CONNECT) != 0) ? this.onConnect : null;
			if (read != null) {
				this.onRead = null;
			}
			if (write != null) {
				this.onWrite = null;
			}
			if (connect != null) {
				this.onConnect = null;
			}
			if (connect != null) {
				runner.accept(connect);
			}
			if (write != null) {
				runner.accept(write);
			}
			if (read != null) {
				runner.accept(read);
			}
		}

	}

	/**
	 * Ends the thread once its connections have closed their streams, or at the latest after
	 * {@code lingerNanos}.
	 */
	void shutdown(long lingerNanos) {
		this.shutdownDeadline = System.nanoTime() + lingerNanos;
		this.shuttingDown = true;
		this.selector.wakeup();
	}

	@Override
	public void run() {
		long nextTick = System.nanoTime() + TICK_NANOS;
		boolean ticksWanted = false;
		try {
			while (true) {
				this.wakeupPending.set(false);
				// Only the tasks queued before this round: a connection that yields its turn
				// (its byte budget spent) queues the next behind the sockets ready meanwhile.
				for (int queued = this.tasks.size(); queued > 0; queued--) {
					Runnable task = this.tasks.poll();
					if (task == null) {
						break;
					}
					runSafely(task);
				}
				for (int queued = this.ownTasks.size(); queued > 0; queued--) {
					runSafely(this.ownTasks.poll());
				}
				long now = System.nanoTime();
				while (!this.timers.isEmpty() && this.timers.peek().at - now <= 0) {
					Timer due = this.timers.poll();
					due.pending = false;
					runSafely(due.action);
				}
				if (now - nextTick >= 0) {
					nextTick = now + TICK_NANOS;
					for (RdmapTransmitter member : this.members) {
						runSafely(member::look);
					}
					ticksWanted = this.tick.test(now);
				}
				if (this.shuttingDown && (this.members.isEmpty() || now - this.shutdownDeadline >= 0)) {
					return;
				}
				boolean untimed = this.members.isEmpty() && !this.shuttingDown && !ticksWanted;
				long wait = untimed ? Long.MAX_VALUE : nextTick - now;
				if (!this.timers.isEmpty()) {
					wait = Math.min(wait, this.timers.peek().at - now);
				}
				long millis = (wait == Long.MAX_VALUE) ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait + 999_999));
				// Told before the tasks are looked at: a task queued meanwhile is either seen
				// below or sees when the select ends by itself (executeSoon).
				this.selectEnds = now + ((millis == 0) ? NEVER : TimeUnit.MILLISECONDS.toNanos(millis));
				if (!this.tasks.isEmpty() || !this.ownTasks.isEmpty()) {
					this.selector.selectNow(this.readyAction);
					continue;
				}
				if (pollBeforeSleeping(wait)) {
					continue;
				}
				this.selector.select(this.readyAction, millis);
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.log(System.Logger.Level.ERROR, "siw I/O thread " + this.thread.getName() + " failed", ex);
		}
		finally {
			try {
				this.selector.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
	}

	/**
	 * Before the thread sleeps: if bytes are owed, or a socket was ready in this turn (a busy
	 * connection's next message is likely within microseconds), polls the sockets without
	 * sleeping, yielding between polls (a thread waiting for this CPU, the peer's writer perhaps,
	 * runs first), for up to {@link #pollNanos} but not beyond {@code wait}. A message that comes
	 * meanwhile costs no wake-up, which on a virtual machine, its other CPU asleep, takes longer
	 * than a small call's whole round trip (docs/performance.md, "An I/O thread that polls after
	 * serving"). Polls after serving that run out back off ({@link CallerSpin}); polls for bytes
	 * owed do not, the bytes being on their way. A yield that takes longer than
	 * {@link #CONTENDED_YIELD_NANOS} means every CPU is busy: a thread that yields stays
	 * runnable and gets the CPU back only after the others' slices, while one asleep in
	 * {@code epoll} is run first when its socket wakes it. So such a poll ends at once, counts
	 * as run out, and no poll is made for {@link #CONTENDED_HOLD_OFF_NANOS} (found in
	 * {@code Compare}'s busy-machine case: a p99 of 2-4 ms in one round of three or four,
	 * against 41-157 µs without the poll).
	 * @return whether a socket was ready or a task came
	 */
	private boolean pollBeforeSleeping(long wait) throws IOException {
		boolean forOwed = this.owed;
		long nanos = forOwed ? this.pollNanos : (this.served ? this.afterServing.pollNanos() : 0);
		this.owed = false;
		this.served = false;
		nanos = Math.min(nanos, wait);
		if (nanos <= 0 || System.nanoTime() - this.pollAgainAt < 0) {
			return false;
		}
		if (forOwed) {
			this.owedPolls++;
		}
		else {
			this.servedPolls++;
		}
		long deadline = System.nanoTime() + nanos;
		do {
			if (this.selector.selectNow(this.readyAction) > 0 || !this.tasks.isEmpty()) {
				if (forOwed) {
					this.owedPollHits++;
				}
				else {
					this.servedPollHits++;
					this.afterServing.hit();
				}
				return true;
			}
			long yielded = System.nanoTime();
			this.betweenPolls.run();
			long now = System.nanoTime();
			if (now - yielded > this.contendedYieldNanos) {
				this.pollAgainAt = now + this.holdOffNanos;
				this.contendedPolls++;
				break;
			}
		}
		while (System.nanoTime() - deadline < 0 && !this.shuttingDown);
		if (!forOwed) {
			this.afterServing.missed();
		}
		return false;
	}

	private void ready(SelectionKey key) {
		int ready;
		try {
			// One shot: the operations that fired stop being waited for; the others stay.
			int interest = key.interestOps();
			ready = key.readyOps() & interest;
			key.interestOps(interest & ~ready);
		}
		catch (CancelledKeyException ex) {
			// The channel closed since the select: whoever closed it has told its connection.
			return;
		}
		this.served = true;
		((Interest) key.attachment()).fire(ready, this.runner);
	}

	private final java.util.function.Consumer<Runnable> runner = this::runSafely;

	// Made once: a wake-up of this thread allocates nothing, as a connection's own receive
	// thread did not.
	private final java.util.function.Consumer<SelectionKey> readyAction = this::ready;

	private void runSafely(Runnable task) {
		try {
			task.run();
		}
		catch (RuntimeException ex) {
			logger.log(System.Logger.Level.ERROR, "A task on siw I/O thread " + this.thread.getName() + " failed", ex);
		}
	}

}
