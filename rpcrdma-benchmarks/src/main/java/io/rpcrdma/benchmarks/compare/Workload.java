package io.rpcrdma.benchmarks.compare;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;

/**
 * Runs the comparison's cases against one contender. Every call blocks until its reply has
 * arrived; times come from {@link System#nanoTime()}.
 */
final class Workload {

	/** The small call's payload: 64 bytes each way. */
	static final int SMALL = 64;

	/** Calls slower than this are recorded as this (HdrHistogram's trackable range). */
	private static final long LONGEST_NANOS = TimeUnit.SECONDS.toNanos(60);

	/** CPU time per call, client and server together (µs). */
	static final String CPU_PER_CALL = "cpu/call";

	/** The client's CPU time per call when the server runs in a process of its own (µs). */
	static final String CLIENT_CPU_PER_CALL = "client cpu/call";

	/** The server process's CPU time per call (µs). */
	static final String SERVER_CPU_PER_CALL = "server cpu/call";

	/** CPU time per MiB of bulk data moved, client and server together (ms). */
	static final String CPU_PER_MEBIBYTE = "cpu/MiB";

	private final Pace pace;

	private final byte[] small = Payloads.filled(SMALL);

	Workload(Pace pace) {
		this.pace = pace;
	}

	/**
	 * Drives a contender before anything is measured: small calls from four threads for the
	 * pace's contender warm-up, then 1 MiB calls each way for a quarter of it. Nothing is
	 * recorded.
	 * @param contender who is warmed up
	 * @throws Exception if a call fails
	 */
	void warmUp(Contender contender) throws Exception {
		if (this.pace.contenderWarmup().isZero()) {
			return;
		}
		Pace warming = new Pace("warm-up", Duration.ZERO, this.pace.contenderWarmup(), Duration.ofMillis(1),
				Duration.ofMillis(1), 1, 1);
		new Workload(warming).throughput(contender, 4);
		Duration bulkWarmup = this.pace.contenderWarmup().dividedBy(4);
		Workload bulk = new Workload(new Pace("warm-up", Duration.ZERO, bulkWarmup, Duration.ofMillis(1),
				Duration.ofMillis(1), 1, 1));
		bulk.bulk(contender, true, 1 << 20);
		bulk.bulk(contender, false, 1 << 20);
	}

	/**
	 * 64-byte calls one at a time from one thread, each timed.
	 * @param contender who is measured
	 * @return p50, p99 and mean in microseconds
	 * @throws Exception if a call fails
	 */
	List<Measurement> latency(Contender contender) throws Exception {
		return latency(contender, Measurement.LATENCY);
	}

	/**
	 * 64-byte calls one at a time from one thread, each timed.
	 * @param contender who is measured
	 * @param scenario what the measurements are called
	 * @return p50, p99 and mean in microseconds
	 * @throws Exception if a call fails
	 */
	List<Measurement> latency(Contender contender, String scenario) throws Exception {
		Histogram histogram = new Histogram(LONGEST_NANOS, 3);
		CpuTime cpu;
		try (Contender.Session session = contender.openSession()) {
			long warmEnd = System.nanoTime() + this.pace.warmup().toNanos();
			do {
				session.echo(this.small);
			}
			while (System.nanoTime() < warmEnd);
			long end = System.nanoTime() + this.pace.latencyMeasure().toNanos();
			long calls = 0;
			long now;
			CpuTime before = CpuTime.sample(contender);
			do {
				long start = System.nanoTime();
				session.echo(this.small);
				now = System.nanoTime();
				histogram.recordValue(Math.min(now - start, LONGEST_NANOS));
				calls++;
			}
			while (now < end || calls < this.pace.minCalls());
			cpu = CpuTime.sample(contender).since(before);
		}
		long calls = histogram.getTotalCount();
		String name = contender.name();
		List<Measurement> figures = new ArrayList<>(List.of(
				new Measurement(scenario, name, SMALL, "p50", micros(histogram.getValueAtPercentile(50)), "us", calls),
				new Measurement(scenario, name, SMALL, "p99", micros(histogram.getValueAtPercentile(99)), "us", calls),
				new Measurement(scenario, name, SMALL, "mean", histogram.getMean() / 1000.0, "us", calls)));
		figures.addAll(cpuPerCall(scenario, name, SMALL, cpu, calls));
		return figures;
	}

	/**
	 * CPU time per call, both sides together ({@link #CPU_PER_CALL}), and each side apart when
	 * the server runs in a process of its own. None on a busy machine, whose spinning threads
	 * run in the measuring JVM.
	 */
	static List<Measurement> cpuPerCall(String scenario, String contender, long parameter, CpuTime cpu, long calls) {
		if (calls == 0 || scenario.endsWith(Measurement.BUSY_SUFFIX)) {
			return List.of();
		}
		List<Measurement> figures = new ArrayList<>(3);
		figures.add(new Measurement(scenario, contender, parameter, CPU_PER_CALL, micros(cpu.totalNanos()) / calls, "us",
				calls));
		if (cpu.serverApart()) {
			figures.add(new Measurement(scenario, contender, parameter, CLIENT_CPU_PER_CALL,
					micros(cpu.clientNanos()) / calls, "us", calls));
			figures.add(new Measurement(scenario, contender, parameter, SERVER_CPU_PER_CALL,
					micros(cpu.serverNanos()) / calls, "us", calls));
		}
		return figures;
	}

	/**
	 * 64-byte calls from {@code threads} threads, each with its own session, back to back.
	 * @param contender who is measured
	 * @param threads client threads
	 * @return calls per second over the measured window
	 * @throws Exception if a call fails
	 */
	List<Measurement> throughput(Contender contender, int threads) throws Exception {
		return throughput(contender, threads, ClientThreads.PLATFORM, Measurement.THROUGHPUT);
	}

	/**
	 * 64-byte calls from {@code threads} blocking client threads of one kind, each with its own
	 * session, back to back.
	 * @param contender who is measured
	 * @param threads client threads
	 * @param kind platform or virtual threads
	 * @param scenario what the measurement is called
	 * @return calls per second over the measured window, then the CPU time per call
	 * @throws Exception if a call fails
	 */
	List<Measurement> throughput(Contender contender, int threads, ClientThreads kind, String scenario)
			throws Exception {
		List<Contender.Session> sessions = new ArrayList<>(threads);
		try {
			for (int i = 0; i < threads; i++) {
				sessions.add(contender.openSession());
			}
			Window window = new Window(threads, contender);
			List<Thread> workers = new ArrayList<>(threads);
			for (int i = 0; i < threads; i++) {
				Contender.Session session = sessions.get(i);
				Thread worker = kind.create(() -> window.run(() -> session.echo(this.small)),
						contender.name() + "-client-" + i);
				workers.add(worker);
				worker.start();
			}
			long calls = window.measure(this.pace, workers);
			double perSecond = calls / (window.measuredNanos / 1e9);
			List<Measurement> figures = new ArrayList<>(4);
			figures.add(new Measurement(scenario, contender.name(), threads, "calls/s", perSecond, "calls/s", calls));
			figures.addAll(cpuPerCall(scenario, contender.name(), threads, window.cpu, calls));
			return figures;
		}
		finally {
			for (Contender.Session session : sessions) {
				session.close();
			}
		}
	}

	/**
	 * 64-byte calls over {@code connections} client connections, each with one blocking
	 * client thread of its own (a session per connection: the contender must open a
	 * connection per session), back to back, every measured call timed.
	 * @param contender who is measured
	 * @param connections client connections and threads
	 * @return calls per second and the p99 latency (µs) over the measured window
	 * @throws Exception if a call fails
	 */
	List<Measurement> connections(Contender contender, int connections) throws Exception {
		List<Contender.Session> sessions = new ArrayList<>(connections);
		try {
			for (int i = 0; i < connections; i++) {
				sessions.add(contender.openSession());
			}
			Window window = new Window(connections, contender);
			List<Histogram> histograms = new ArrayList<>(connections);
			List<Thread> workers = new ArrayList<>(connections);
			for (int i = 0; i < connections; i++) {
				Contender.Session session = sessions.get(i);
				// Each worker records into its own histogram; they are merged once joined.
				Histogram histogram = new Histogram(LONGEST_NANOS, 3);
				histograms.add(histogram);
				Thread worker = ClientThreads.PLATFORM.create(() -> window.run(() -> {
					long start = System.nanoTime();
					session.echo(this.small);
					if (window.measuring()) {
						histogram.recordValue(Math.min(System.nanoTime() - start, LONGEST_NANOS));
					}
				}), contender.name() + "-connection-" + i);
				workers.add(worker);
				worker.start();
			}
			long calls = window.measure(this.pace, workers);
			Histogram all = new Histogram(LONGEST_NANOS, 3);
			for (Histogram histogram : histograms) {
				all.add(histogram);
			}
			double perSecond = calls / (window.measuredNanos / 1e9);
			List<Measurement> figures = new ArrayList<>(List.of(
					new Measurement(Measurement.CONNECTIONS, contender.name(), connections, "calls/s", perSecond, "calls/s",
							calls),
					new Measurement(Measurement.CONNECTIONS, contender.name(), connections, "p99",
							micros(all.getValueAtPercentile(99)), "us", all.getTotalCount())));
			figures.addAll(cpuPerCall(Measurement.CONNECTIONS, contender.name(), connections, window.cpu, calls));
			return figures;
		}
		finally {
			for (Contender.Session session : sessions) {
				session.close();
			}
		}
	}

	/**
	 * Bulk calls one at a time from one thread.
	 * @param contender who is measured
	 * @param argument whether the bulk data is the argument (put) or the result (get)
	 * @param size bytes per call
	 * @return MB/s (10^6 bytes per second) of payload, then the CPU time per MiB moved
	 * @throws Exception if a call fails
	 */
	List<Measurement> bulk(Contender contender, boolean argument, int size) throws Exception {
		try (Contender.Session session = contender.openSession()) {
			Call call = argument ? () -> session.put(size) : () -> session.get(size);
			call.run();
			long warmEnd = System.nanoTime() + this.pace.warmup().toNanos();
			while (System.nanoTime() < warmEnd) {
				call.run();
			}
			CpuTime before = CpuTime.sample(contender);
			long start = System.nanoTime();
			long end = start + this.pace.measure().toNanos();
			long calls = 0;
			long now;
			do {
				call.run();
				calls++;
				now = System.nanoTime();
			}
			while (now < end || calls < this.pace.minCalls());
			CpuTime cpu = CpuTime.sample(contender).since(before);
			double megabytesPerSecond = (double) calls * size / ((now - start) / 1e9) / 1e6;
			String scenario = argument ? Measurement.BULK_ARGUMENT : Measurement.BULK_RESULT;
			double mebibytes = (double) calls * size / (1 << 20);
			return List.of(
					new Measurement(scenario, contender.name(), size, "MB/s", megabytesPerSecond, "MB/s", calls),
					new Measurement(scenario, contender.name(), size, CPU_PER_MEBIBYTE, cpu.totalNanos() / 1e6 / mebibytes,
							"ms", calls));
		}
	}

	private static double micros(long nanos) {
		return nanos / 1000.0;
	}

	/** A call that may fail. */
	@FunctionalInterface
	interface Call {

		void run() throws Exception;

	}

	/**
	 * The warm-up and measured window of a multi-threaded case: workers count only the calls
	 * that both start and end inside the window, and the first failure stops everyone.
	 */
	private static final class Window {

		private static final int WARMING = 0;

		private static final int MEASURING = 1;

		private static final int STOPPED = 2;

		private final LongAdder calls = new LongAdder();

		private final CountDownLatch started;

		private final AtomicReference<Throwable> failure = new AtomicReference<>();

		private volatile int phase = WARMING;

		private final Contender contender;

		private long measuredNanos;

		/** The CPU time the measured window took. */
		private CpuTime cpu;

		Window(int threads, Contender contender) {
			this.started = new CountDownLatch(threads);
			this.contender = contender;
		}

		/** @return whether calls ending now are counted */
		boolean measuring() {
			return this.phase == MEASURING;
		}

		void run(Call call) {
			this.started.countDown();
			try {
				while (true) {
					int before = this.phase;
					if (before == STOPPED) {
						return;
					}
					call.run();
					if (before == MEASURING && this.phase == MEASURING) {
						this.calls.increment();
					}
				}
			}
			catch (Throwable failed) {
				this.failure.compareAndSet(null, failed);
				this.phase = STOPPED;
			}
		}

		long measure(Pace pace, List<Thread> workers) throws Exception {
			if (!this.started.await(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The client threads did not start within 60 s");
			}
			TimeUnit.NANOSECONDS.sleep(pace.warmup().toNanos());
			CpuTime before = CpuTime.sample(this.contender);
			long start = System.nanoTime();
			if (this.phase == WARMING) {
				this.phase = MEASURING;
			}
			TimeUnit.NANOSECONDS.sleep(pace.measure().toNanos());
			// At least the pace's fewest calls, however slow the machine: up to a minute more.
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
			while (this.phase == MEASURING && this.calls.sum() < pace.minCalls() && System.nanoTime() < deadline) {
				TimeUnit.MILLISECONDS.sleep(1);
			}
			long total = this.calls.sum();
			this.measuredNanos = System.nanoTime() - start;
			this.phase = STOPPED;
			this.cpu = CpuTime.sample(this.contender).since(before);
			for (Thread worker : workers) {
				worker.join(TimeUnit.SECONDS.toMillis(90));
				if (worker.isAlive()) {
					throw new IllegalStateException(worker.getName() + " did not finish its call within 90 s");
				}
			}
			Throwable failed = this.failure.get();
			if (failed instanceof Exception exception) {
				throw exception;
			}
			if (failed != null) {
				throw new IllegalStateException(failed);
			}
			return total;
		}

	}

}
