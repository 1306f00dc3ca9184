package io.rpcrdma.benchmarks.attack;

import java.net.InetSocketAddress;

/**
 * One attack of issue #33 on the server, run continuously in threads of its own while the
 * honest clients are measured, reconnecting whenever the server drops it. It counts what it
 * did, so that a run can show it actually ran.
 */
interface Attack {

	/** @return a short name, as the report's rows and the command line use */
	String key();

	/** @return what the attacker does, for the report */
	String description();

	/**
	 * What shows that the attack reached the server, as the smoke run checks it.
	 * @return drops for an attack the server ends connections of, replies for a flood the
	 * server answers, attempts alone for one it does not answer at all
	 */
	Evidence evidence();

	/** What shows that an attack reached the server. */
	enum Evidence {

		/** The server ended the attacker's connections ({@link Counts#drops()} &gt; 0). */
		DROPS,

		/** The server answered the attacker ({@link Counts#replies()} &gt; 0). */
		REPLIES,

		/**
		 * The server accepted the attacker's connections and it made its attempts; nothing more
		 * comes back ({@link Counts#attempts()} &gt; 0).
		 */
		ATTEMPTS;

		/**
		 * @param counts what an attack did
		 * @return whether they show this evidence
		 */
		boolean shownBy(Counts counts) {
			return switch (this) {
				case DROPS -> counts.drops() > 0;
				case REPLIES -> counts.replies() > 0;
				case ATTEMPTS -> counts.attempts() > 0;
			};
		}

	}

	/**
	 * Starts the attack's threads.
	 * @param server where the attacked server listens
	 */
	void start(InetSocketAddress server);

	/**
	 * Stops the threads, closing every connection the attack holds.
	 * @throws InterruptedException if interrupted while waiting for them
	 */
	void stop() throws InterruptedException;

	/** @return what the attack has done since it started */
	Counts counts();

	/**
	 * What an attack did.
	 * @param attempts hostile acts sent (forged operations, pinning calls, stalled frames, calls of a flood, contexts asked for)
	 * @param connections connections it opened
	 * @param drops connections the server ended (a Terminate or a close) or contexts it refused
	 * @param replies replies (or contexts) the server gave it
	 * @param errors its own failures other than drops: connects refused, deadlines passed
	 * @param firstError the first of those, or {@code null}
	 * @param firstDrop how the server ended the first connection it dropped (its Terminate) or
	 * refused the first context, or {@code null}
	 * @param cpuNanos CPU time the attack's own threads used (the attacker shares the machine's
	 * cores with the server and the honest clients)
	 * @param runNanos how long the attack has run
	 */
	record Counts(long attempts, long connections, long drops, long replies, long errors, String firstError,
			String firstDrop, long cpuNanos, long runNanos) {

		/** Nothing yet. */
		static final Counts NONE = new Counts(0, 0, 0, 0, 0, null, null, 0, 0);

		/** @return the cores the attack's threads kept busy on average, 0 before it ran */
		double cores() {
			return (this.runNanos > 0) ? (double) this.cpuNanos / this.runNanos : 0;
		}

	}

}
