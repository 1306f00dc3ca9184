package io.rpcrdma.benchmarks.attack;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.security.RpcSecGssClient;
import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * The honest clients: a few threads calling {@link AttackedService} through the service layer
 * with the library's defaults (provider, memory pool, transport, client pool, call timeout),
 * one connection per kind of call that its threads share. Every exception an honest call
 * ends with is a failure, counted; the threads go on calling after one.
 */
final class HonestLoad implements AutoCloseable {

	/** The small call's payload, each way. */
	static final int SMALL = 64;

	/** The bulk calls' payload. */
	static final int BULK = 1 << 20;

	/** Calls slower than this are recorded as this (HdrHistogram's trackable range). */
	private static final long LONGEST_NANOS = TimeUnit.SECONDS.toNanos(60);

	/** How long creating an honest context may take. */
	private static final Duration CONTEXT_TIMEOUT = Duration.ofSeconds(30);

	/** How long a thread may take to finish its call once the measurement ends. */
	private static final Duration JOIN = Duration.ofSeconds(90);

	/** What an honest client calls. */
	enum Kind {

		/** 64-byte echoes, inline both ways. */
		SMALL("64 B echo"),

		/** 1 MiB arguments, by Read chunk. */
		ARGUMENT("1 MiB argument"),

		/** 1 MiB results, by Write chunk. */
		RESULT("1 MiB result"),

		/** A new RPCSEC_GSS context, created and destroyed (RFC 2203 §5.2, §5.4): only with a KDC. */
		CONTEXT("new krb5 context");

		private final String label;

		Kind(String label) {
			this.label = label;
		}

		/** @return how the reports name it */
		String label() {
			return this.label;
		}

	}

	/**
	 * What the honest clients of one kind achieved in one measured window.
	 * @param kind what they called
	 * @param callsPerSecond calls that started and ended in the window, per second
	 * @param p99Micros the 99th percentile of those calls' latency, µs
	 * @param calls how many calls the figures are taken from
	 * @param failures every call that ended with an exception, warm-up included
	 * @param firstFailure the first such exception's description, or {@code null}
	 */
	record Figures(Kind kind, double callsPerSecond, double p99Micros, long calls, long failures, String firstFailure) {
	}

	private final int threads;

	private final RdmaProvider provider;

	private final RegisteredMemoryPool memory;

	private final List<RpcClientPool> connections = new ArrayList<>();

	private final List<AttackedService> services = new ArrayList<>();

	private final byte[] small = new byte[SMALL];

	/** The honest user's Kerberos login, or {@code null} when no KDC runs. */
	private final KerberosCredentials credentials;

	/**
	 * Opens a connection per kind of call.
	 * @param server where the server listens
	 * @param threads client threads per kind
	 * @param credentials the honest user's Kerberos login for {@link Kind#CONTEXT}, or
	 * {@code null} to leave that kind out
	 */
	HonestLoad(InetSocketAddress server, int threads, KerberosCredentials credentials) {
		this.threads = threads;
		this.credentials = credentials;
		this.provider = RdmaProviders.open("siw");
		this.memory = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		ServiceClientFactory factory = new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard()));
		for (int i = 0; i < kinds().size(); i++) {
			RpcClientPool pool = RpcClientPool.connect(this.provider, this.memory, server, TransportConfig.defaults(),
					4 * threads, RpcClientPool.Config.of(1, 1));
			this.connections.add(pool);
			this.services.add(factory.create(AttackedService.class, pool, ServiceClientOptions.DEFAULTS));
		}
		for (int i = 0; i < SMALL; i++) {
			this.small[i] = (byte) (i * 31 + 7);
		}
	}

	/** @return what the honest clients call: every kind, but a new context only with a KDC */
	List<Kind> kinds() {
		return (this.credentials != null) ? List.of(Kind.values())
				: List.of(Kind.SMALL, Kind.ARGUMENT, Kind.RESULT);
	}

	/** @return how many connections the honest clients hold open */
	int connections() {
		return this.connections.size();
	}

	/**
	 * Calls from every thread for the warm-up, then measures.
	 * @param kind what to call
	 * @param warmup calls before the window, not measured (failures still count)
	 * @param measure the measured window
	 * @return the figures
	 * @throws InterruptedException if interrupted while waiting
	 */
	Figures run(Kind kind, Duration warmup, Duration measure) throws InterruptedException {
		AttackedService service = this.services.get(kind.ordinal());
		Window window = new Window(this.threads);
		List<Thread> workers = new ArrayList<>(this.threads);
		List<Histogram> histograms = new ArrayList<>(this.threads);
		for (int i = 0; i < this.threads; i++) {
			Histogram histogram = new Histogram(LONGEST_NANOS, 3);
			histograms.add(histogram);
			Call call = call(kind, service, this.connections.get(kind.ordinal()));
			Thread worker = new Thread(() -> window.run(call, histogram), "honest-" + kind + "-" + i);
			worker.setDaemon(true);
			workers.add(worker);
			worker.start();
		}
		long measuredNanos = window.measure(warmup, measure, workers);
		Histogram all = new Histogram(LONGEST_NANOS, 3);
		histograms.forEach(all::add);
		long calls = all.getTotalCount();
		double perSecond = calls / (measuredNanos / 1e9);
		double p99 = (calls > 0) ? all.getValueAtPercentile(99) / 1000.0 : Double.NaN;
		Throwable first = window.firstFailure.get();
		return new Figures(kind, perSecond, p99, calls, window.failures.sum(), (first == null) ? null : first.toString());
	}

	private Call call(Kind kind, AttackedService service, RpcClientPool connection) {
		return switch (kind) {
			case SMALL -> () -> {
				byte[] reply = service.echo(this.small);
				if (reply.length != SMALL) {
					throw new IllegalStateException(reply.length + " bytes echoed for " + SMALL);
				}
			};
			case ARGUMENT -> new Call() {

				private RegisteredBuffer source;

				@Override
				public void run() throws Exception {
					if (this.source == null) {
						// A registered source leased once per thread: the zero-copy argument API.
						this.source = HonestLoad.this.memory.lease(BufferRole.READ_CHUNK, BULK);
						this.source.buffer().duplicate().put(AttackedServiceImpl.filled(BULK));
					}
					int received = service.put(BulkData.of(this.source, BULK));
					if (received != BULK) {
						throw new IllegalStateException(received + " bytes acknowledged for " + BULK);
					}
				}

				@Override
				public void close() {
					if (this.source != null) {
						this.source.release();
					}
				}

			};
			case RESULT -> () -> {
				int length = service.get(BULK).remaining();
				if (length != BULK) {
					throw new IllegalStateException(length + " bytes sent for " + BULK);
				}
			};
			case CONTEXT -> () -> {
				try (RpcSecGssClient context = RpcSecGssClient.establish(connection, AttackedService.PROGRAM,
						AttackedService.VERSION, this.credentials, AttackedServer.GSS_SERVICE, CONTEXT_TIMEOUT)) {
					// Established: the server accepted the honest user's ticket; closing destroys it.
				}
			};
		};
	}

	@Override
	public void close() {
		for (RpcClientPool pool : this.connections) {
			pool.close();
		}
		this.memory.close();
		this.provider.close();
	}

	/** One honest call; what it leased per thread is given back by {@link #close()}. */
	@FunctionalInterface
	private interface Call {

		void run() throws Exception;

		default void close() {
		}

	}

	/**
	 * The warm-up and measured window of the honest threads: a call is timed only when it both
	 * starts and ends in the window; every failure counts, whenever it happens.
	 */
	private static final class Window {

		private static final int WARMING = 0;

		private static final int MEASURING = 1;

		private static final int STOPPED = 2;

		private final CountDownLatch started;

		private final LongAdder failures = new LongAdder();

		private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

		private volatile int phase = WARMING;

		Window(int threads) {
			this.started = new CountDownLatch(threads);
		}

		void run(Call call, Histogram histogram) {
			this.started.countDown();
			try {
				while (true) {
					int before = this.phase;
					if (before == STOPPED) {
						return;
					}
					long start = System.nanoTime();
					try {
						call.run();
					}
					catch (Exception failed) {
						this.failures.increment();
						this.firstFailure.compareAndSet(null, failed);
						continue;
					}
					long took = System.nanoTime() - start;
					if (before == MEASURING && this.phase == MEASURING) {
						histogram.recordValue(Math.min(took, LONGEST_NANOS));
					}
				}
			}
			finally {
				call.close();
			}
		}

		long measure(Duration warmup, Duration measure, List<Thread> workers) throws InterruptedException {
			if (!this.started.await(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The honest client threads did not start within 60 s");
			}
			TimeUnit.NANOSECONDS.sleep(warmup.toNanos());
			long start = System.nanoTime();
			this.phase = MEASURING;
			TimeUnit.NANOSECONDS.sleep(measure.toNanos());
			this.phase = STOPPED;
			long measured = System.nanoTime() - start;
			for (Thread worker : workers) {
				worker.join(JOIN.toMillis());
				if (worker.isAlive()) {
					throw new IllegalStateException(worker.getName() + " did not finish its call within " + JOIN);
				}
			}
			return measured;
		}

	}

}
