package io.rpcrdma.verbs.siw;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.LongPredicate;

/**
 * A provider's fixed set of I/O threads ({@code siw.io-threads}, {@link SiwSettings#ioThreads()}):
 * connections share them instead of each having a transmit thread of its own, so that the
 * provider's threads do not grow with its connections. Threads start when the first connection
 * needs one; each connection goes to the thread serving the fewest.
 */
final class SiwIoThreads {

	private final SiwIoThread[] threads;

	private final LongPredicate tick;

	private final long pollNanos;

	private boolean shutDown;

	/**
	 * @param count the threads
	 * @param tick what each thread also does at its periodic look, given the time; whether it wants
	 * more ticks while the thread serves no connection
	 * @param pollNanos how long a thread polls its sockets before it sleeps
	 * ({@link SiwSettings#ioPoll()})
	 */
	SiwIoThreads(int count, LongPredicate tick, long pollNanos) {
		this.threads = new SiwIoThread[count];
		this.tick = tick;
		this.pollNanos = pollNanos;
	}

	/**
	 * @return the started thread that serves the fewest connections
	 * @throws UncheckedIOException if no selector can be opened
	 */
	synchronized SiwIoThread assign() {
		SiwIoThread least = null;
		for (int i = 0; i < this.threads.length; i++) {
			SiwIoThread t = this.threads[i];
			if (t == null) {
				try {
					t = new SiwIoThread("siw-io-" + i, this.tick, this.pollNanos);
				}
				catch (IOException ex) {
					throw new UncheckedIOException("Cannot open a selector for a siw I/O thread", ex);
				}
				t.start();
				this.threads[i] = t;
				if (this.shutDown) {
					t.shutdown(0);
				}
				return t;
			}
			if (least == null || t.load() < least.load()) {
				least = t;
			}
		}
		return least;
	}

	/**
	 * Lets the threads end once their connections have closed their streams, or after
	 * {@code lingerNanos}.
	 */
	synchronized void shutdown(long lingerNanos) {
		this.shutDown = true;
		for (SiwIoThread t : this.threads) {
			if (t != null) {
				t.shutdown(lingerNanos);
			}
		}
	}

	/** @return the threads started so far */
	synchronized int started() {
		int n = 0;
		for (SiwIoThread t : this.threads) {
			n += (t != null) ? 1 : 0;
		}
		return n;
	}

}
