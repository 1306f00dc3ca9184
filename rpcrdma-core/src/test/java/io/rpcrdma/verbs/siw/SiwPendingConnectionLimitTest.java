package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.siw.wire.CrcPolicy;
import io.rpcrdma.verbs.siw.wire.MpaCodec;
import io.rpcrdma.verbs.siw.wire.MpaIrdOrd;
import io.rpcrdma.verbs.siw.wire.MpaNegotiator;

/**
 * Accepted TCP connections that have not become iWARP connections yet have a thread but no
 * queue pair, so {@code siw.max-queue-pairs} bounds them separately: a flood of TCP
 * connections that send no MPA Request (RFC 5044 §7.1) starts at most that many threads,
 * the rest are closed by the server at once, unread, counted and logged, and once the flood
 * ends real clients connect. A peer that never completes its MPA Request is closed at
 * {@code siw.mpa-timeout-millis} and gives its place back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwPendingConnectionLimitTest {

	private static final int PROGRAM = 0x2000_7112;

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final int LIMIT = 2;

	private static final int FLOOD = 50;

	private static final String PASSIVE_THREAD = "siw-rx-passive";

	private final List<Socket> sockets = new ArrayList<>();

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void closeEverything() throws Exception {
		for (Socket socket : this.sockets) {
			socket.close();
		}
		// Last opened, first closed: the server before its provider.
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void aFloodOfSilentTcpConnectionsStartsNoMoreThreadsThanTheLimitAndTheRestAreClosedAtOnce() throws Exception {
		Set<Thread> before = passiveThreads();
		// The admitted connections must hold their places throughout: a long MPA timeout.
		SiwProvider serverProvider = open(RdmaProviderConfig.defaults()
			.with(SiwSettings.MAX_QUEUE_PAIRS, Integer.toString(LIMIT))
			.with(SiwSettings.MPA_TIMEOUT_MILLIS, "120000"));
		RdmaProvider clientProvider = keep(RdmaProviders.open("siw"));
		RegisteredMemoryPool serverMemory = keep(memory(serverProvider));
		RegisteredMemoryPool clientMemory = keep(memory(clientProvider));
		RpcServer server = RpcServer.start(RpcServer.Config.defaults(serverProvider, serverMemory,
				new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)), new ProgramRegistry().registerVersion(PROGRAM, 1));
		keep(() -> server.shutdown(Duration.ofSeconds(1)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
		List<LogRecord> warnings = new CopyOnWriteArrayList<>();
		Logger log = Logger.getLogger(SiwProvider.class.getName());
		Handler capture = capture(warnings);
		log.addHandler(capture);
		long floodStart = System.nanoTime();
		try {
			List<Socket> flood = new ArrayList<>();
			for (int i = 0; i < FLOOD; i++) {
				flood.add(silentSocket(server.localAddress()));
				assertThat(newThreads(before)).as("%s threads after %d silent connections", PASSIVE_THREAD, i + 1)
					.isLessThanOrEqualTo(LIMIT);
			}
			awaitTrue(() -> serverProvider.pendingPassiveConnections()
					+ serverProvider.refusedPendingConnections() == FLOOD, "the listener took every connection");
			assertThat(serverProvider.pendingPassiveConnections()).isEqualTo(LIMIT);
			assertThat(serverProvider.refusedPendingConnections()).isEqualTo(FLOOD - LIMIT);
			// Connections waiting for their MPA Request wait on the provider's I/O threads
			// (issue #34): the admitted ones hold places, not threads.
			assertThat(newThreads(before)).as("%s threads after the flood", PASSIVE_THREAD).isZero();

			List<Socket> stillOpen = awaitClosedByServer(flood, FLOOD - LIMIT);
			assertThat(stillOpen).as("the admitted connections, still waiting for their MPA Request").hasSize(LIMIT);
			assertThat(server.transport().refusedConnections()).as("never reached the server's handler").isZero();
		}
		finally {
			log.removeHandler(capture);
		}
		long floodSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - floodStart);
		assertThat(warnings).as("one WARNING per 10 s at most").isNotEmpty().hasSizeLessThanOrEqualTo(1 + (int) (floodSeconds / 10));
		assertThat(warnings.get(0).getLevel()).isEqualTo(Level.WARNING);
		assertThat(warnings.get(0).getMessage()).contains(SiwSettings.MAX_QUEUE_PAIRS).contains("raise");

		for (Socket socket : this.sockets) {
			socket.close();
		}
		// The admitted connections see the end of the stream and give their places back.
		awaitTrue(() -> serverProvider.pendingPassiveConnections() == 0, "the admitted connections gave their places back");
		RpcClient client = RpcClient.connect(clientProvider, clientMemory, server.localAddress(), TransportConfig.defaults(), 16)
			.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		try {
			client.call(PROGRAM, 1, 0, CallBody.NONE, DEADLINE).join().release();
			awaitTrue(() -> serverProvider.pendingPassiveConnections() == 0,
					"the established connection holds no place; its queue pair counts instead");
		}
		finally {
			client.close();
		}
		assertThat(serverProvider.refusedPendingConnections()).as("the real client was not refused").isEqualTo(FLOOD - LIMIT);
	}

	@Test
	void aPeerThatNeverSendsItsMpaRequestIsClosedAtTheMpaTimeoutAndGivesItsPlaceBack() throws Exception {
		Duration mpaTimeout = Duration.ofMillis(300);
		SiwProvider provider = open(RdmaProviderConfig.defaults()
			.with(SiwSettings.MAX_QUEUE_PAIRS, "1")
			.with(SiwSettings.MPA_TIMEOUT_MILLIS, Long.toString(mpaTimeout.toMillis())));
		AtomicInteger requests = new AtomicInteger();
		RdmaListener listener = keep(provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				(request) -> requests.incrementAndGet()));
		// Twice on a limit of one: the second is admitted only if the first gave its place back.
		for (int i = 0; i < 2; i++) {
			long start = System.nanoTime();
			Socket silent = silentSocket(listener.localAddress());
			assertThat(awaitEnd(silent)).as("the provider closed silent connection %d", i + 1).isTrue();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not before the MPA timeout")
				.isGreaterThanOrEqualTo(mpaTimeout);
			awaitTrue(() -> provider.pendingPassiveConnections() == 0, "the silent connection gave its place back");
		}
		assertThat(provider.refusedPendingConnections()).isZero();
		assertThat(requests).hasValue(0);
	}

	@Test
	void aPeerThatSendsPartOfItsMpaRequestIsClosedAtTheSameDeadline() throws Exception {
		Duration mpaTimeout = Duration.ofMillis(300);
		SiwProvider provider = open(RdmaProviderConfig.defaults()
			.with(SiwSettings.MPA_TIMEOUT_MILLIS, Long.toString(mpaTimeout.toMillis())));
		AtomicInteger requests = new AtomicInteger();
		RdmaListener listener = keep(provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				(request) -> requests.incrementAndGet()));
		byte[] request = new MpaCodec().encode(new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED)
			.request(MpaIrdOrd.of(4, 4), new byte[0])).array();
		long start = System.nanoTime();
		Socket slow = silentSocket(listener.localAddress());
		// All of the frame but its last byte: the key, flags and lengths arrive, the frame never ends.
		slow.getOutputStream().write(request, 0, request.length - 1);
		assertThat(awaitEnd(slow)).as("the provider closed the incomplete MPA Request").isTrue();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(mpaTimeout);
		awaitTrue(() -> provider.pendingPassiveConnections() == 0, "the slow connection gave its place back");
		assertThat(requests).hasValue(0);
	}

	// ---- support ------------------------------------------------------------------------

	private SiwProvider open(RdmaProviderConfig config) {
		return (SiwProvider) keep(RdmaProviders.open("siw", config));
	}

	private <T extends AutoCloseable> T keep(T resource) {
		this.resources.add(resource);
		return resource;
	}

	private Socket silentSocket(InetSocketAddress address) throws IOException {
		Socket socket = new Socket();
		this.sockets.add(socket);
		socket.connect(address, (int) DEADLINE.toMillis());
		return socket;
	}

	/**
	 * Whether the server closed the socket (end of stream or reset) within the deadline.
	 */
	private static boolean awaitEnd(Socket socket) throws IOException {
		socket.setSoTimeout((int) DEADLINE.toMillis());
		InputStream in = socket.getInputStream();
		try {
			return in.read() < 0;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException reset) {
			return true;
		}
	}

	/**
	 * Probes the sockets until the server has closed the expected number, within the deadline;
	 * a probe that times out leaves its socket usable.
	 * @return the sockets still open
	 */
	private static List<Socket> awaitClosedByServer(List<Socket> sockets, int expected) throws IOException {
		List<Socket> open = new ArrayList<>(sockets);
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (sockets.size() - open.size() < expected) {
			assertThat(System.nanoTime()).as("%d of %d closed by the server before the deadline",
					sockets.size() - open.size(), expected).isLessThan(deadline);
			for (Socket socket : List.copyOf(open)) {
				socket.setSoTimeout(20);
				try {
					int b = socket.getInputStream().read();
					assertThat(b).as("the server sent nothing on a connection that sent nothing").isNegative();
					open.remove(socket);
				}
				catch (SocketTimeoutException stillOpen) {
					// probed again next round
				}
				catch (IOException reset) {
					open.remove(socket);
				}
			}
		}
		assertThat(sockets.size() - open.size()).as("closed by the server").isEqualTo(expected);
		return open;
	}

	private static void awaitTrue(BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("%s before the deadline", what).isLessThan(deadline);
			// A poll, not a wait for time to pass: the deadline decides. Parked, so as not to
			// take a core from the threads being waited for.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	private static Set<Thread> passiveThreads() {
		Set<Thread> threads = new HashSet<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (thread.isAlive() && PASSIVE_THREAD.equals(thread.getName())) {
				threads.add(thread);
			}
		}
		return threads;
	}

	/** Live passive threads not there before: this test's, whatever other tests left running. */
	private static int newThreads(Set<Thread> before) {
		Set<Thread> now = passiveThreads();
		now.removeAll(before);
		return now.size();
	}

	private static Handler capture(List<LogRecord> records) {
		return new Handler() {
			@Override
			public void publish(LogRecord record) {
				if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
					records.add(record);
				}
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}
		};
	}

	private static RegisteredMemoryPool memory(RdmaProvider provider) {
		return new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
	}

}
