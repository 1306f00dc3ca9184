package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.verbs.siw.SiwWirePeer;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;

/**
 * An attack made from the wire by {@link SiwWirePeer}s (iWARP written by hand on raw TCP
 * sockets): each of its threads opens a connection, plays the attack on it until the server
 * ends it or the attack stops, and opens the next.
 */
abstract class WireAttack implements Attack {

	/** How long one read from the server may take before the thread looks whether it should stop. */
	static final Duration READ_DEADLINE = Duration.ofSeconds(5);

	private final String key;

	private final String description;

	private final Evidence evidence;

	private final int threads;

	private final List<Thread> running = new ArrayList<>();

	private final Set<SiwWirePeer> open = ConcurrentHashMap.newKeySet();

	final LongAdder attempts = new LongAdder();

	final LongAdder connections = new LongAdder();

	final LongAdder drops = new LongAdder();

	final LongAdder replies = new LongAdder();

	final LongAdder errors = new LongAdder();

	private final AtomicReference<String> firstError = new AtomicReference<>();

	private final AtomicReference<String> firstEnd = new AtomicReference<>();

	private volatile boolean stopped;

	/** Released by {@link #stop()}: what a silent attacker waits on. */
	private volatile CountDownLatch stopping = new CountDownLatch(1);

	private final LongAdder cpuNanos = new LongAdder();

	private volatile long startedAt;

	private volatile long stoppedAt;

	/**
	 * @param key the attack's key ({@link Attacks})
	 * @param description what the attack does, for the report
	 * @param evidence what shows the attack working
	 * @param threads connections played at once, a thread each
	 */
	WireAttack(String key, String description, Evidence evidence, int threads) {
		this.key = key;
		this.description = description;
		this.evidence = evidence;
		this.threads = threads;
	}

	@Override
	public final String key() {
		return this.key;
	}

	@Override
	public final String description() {
		return this.description;
	}

	@Override
	public final Evidence evidence() {
		return this.evidence;
	}

	/**
	 * Plays the attack on one connection until the server ends it or the attack stops.
	 * @param peer the connection, MPA exchange done
	 * @param thread which of the attack's threads this is
	 * @throws IOException if the connection fails otherwise
	 */
	abstract void play(SiwWirePeer peer, int thread) throws IOException;

	@Override
	public void start(InetSocketAddress server) {
		this.stopped = false;
		this.stopping = new CountDownLatch(1);
		this.startedAt = System.nanoTime();
		for (int i = 0; i < this.threads; i++) {
			int index = i;
			Thread thread = new Thread(() -> loop(server, index), "attack-" + key() + "-" + i);
			thread.setDaemon(true);
			this.running.add(thread);
			thread.start();
		}
	}

	private void loop(InetSocketAddress server, int index) {
		try {
			connectAndPlay(server, index);
		}
		finally {
			this.cpuNanos.add(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
		}
	}

	private void connectAndPlay(InetSocketAddress server, int index) {
		while (!this.stopped) {
			SiwWirePeer peer;
			try {
				peer = SiwWirePeer.connect(server, READ_DEADLINE);
			}
			catch (IOException refused) {
				error(refused);
				continue;
			}
			this.open.add(peer);
			this.connections.increment();
			try {
				if (!this.stopped) {
					play(peer, index);
				}
			}
			catch (IOException | RuntimeException failed) {
				if (!this.stopped) {
					if (peer.ended()) {
						dropped(null);
					}
					else {
						error(failed);
					}
				}
			}
			finally {
				this.open.remove(peer);
				close(peer);
			}
		}
	}

	/**
	 * Waits until the server ends the connection, counting the drop, or until the attack stops.
	 * Reads that find nothing within {@link #READ_DEADLINE} are not an end: the server may
	 * take its operation timeout to drop a peer.
	 * @param peer the connection
	 * @return whether the server ended it
	 */
	boolean awaitDrop(SiwWirePeer peer) {
		while (!this.stopped) {
			try {
				TerminateMessage terminate = peer.awaitEnd();
				if (this.stopped) {
					// The end was this side's own close.
					return false;
				}
				dropped(terminate);
				return true;
			}
			catch (IOException nothingYet) {
				if (peer.ended()) {
					dropped(null);
					return true;
				}
			}
		}
		return false;
	}

	private void dropped(TerminateMessage terminate) {
		this.drops.increment();
		this.firstEnd.compareAndSet(null, (terminate != null)
				? "Terminate " + terminate.error().map(Object::toString).orElse(terminate.toString())
				: "closed without a Terminate");
	}

	/**
	 * Waits without reading from the server, so that nothing it sends is answered, until the
	 * time has passed or the attack stops.
	 * @param time how long
	 * @return {@code true} if the time passed, {@code false} if the attack stopped
	 */
	boolean holdSilently(Duration time) {
		try {
			return !this.stopping.await(time.toNanos(), TimeUnit.NANOSECONDS) && !this.stopped;
		}
		catch (InterruptedException interrupted) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** @return whether {@link #stop()} was called */
	boolean stopped() {
		return this.stopped;
	}

	void error(Exception failed) {
		this.errors.increment();
		this.firstError.compareAndSet(null, failed.toString());
	}

	@Override
	public void stop() throws InterruptedException {
		this.stopped = true;
		this.stopping.countDown();
		this.stoppedAt = System.nanoTime();
		// Closing the sockets ends every read the threads are blocked in.
		for (SiwWirePeer peer : this.open) {
			close(peer);
		}
		for (Thread thread : this.running) {
			thread.join(30_000);
			if (thread.isAlive()) {
				throw new IllegalStateException(thread.getName() + " did not stop within 30 s");
			}
		}
		this.running.clear();
	}

	@Override
	public Counts counts() {
		long end = (this.stoppedAt != 0) ? this.stoppedAt : System.nanoTime();
		return new Counts(this.attempts.sum(), this.connections.sum(), this.drops.sum(), this.replies.sum(),
				this.errors.sum(), this.firstError.get(), this.firstEnd.get(), this.cpuNanos.sum(), end - this.startedAt);
	}

	private static void close(SiwWirePeer peer) {
		try {
			peer.close();
		}
		catch (IOException ignored) {
			// Closing a socket that is already gone.
		}
	}

}
