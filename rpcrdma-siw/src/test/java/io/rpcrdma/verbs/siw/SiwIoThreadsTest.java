package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * The provider's connections share its {@code siw.io-threads} I/O threads for what posting
 * threads cannot transmit at once, instead of a transmit thread each: opening many
 * connections adds their receive threads only, and the I/O threads stay as many as set.
 * Connections waiting for their MPA Request wait on the I/O threads too, holding no thread. An
 * idle connection holds no transmit buffer.
 */
class SiwIoThreadsTest {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final int CONNECTIONS = 150;

	private static final int IO_THREADS = 2;

	private static final int STALLED = 300;

	private final RdmaProviderConfig config = RdmaProviderConfig.defaults()
		.with(SiwSettings.IO_THREADS, Integer.toString(IO_THREADS));

	private final RdmaProvider serverSide = RdmaProviders.open("siw", this.config);

	private final RdmaProvider clientSide = RdmaProviders.open("siw", this.config);

	@AfterEach
	void close() {
		this.clientSide.close();
		this.serverSide.close();
	}

	@Test
	void connectionsShareTheProvidersIoThreadsInsteadOfATransmitThreadEach() throws Exception {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		int before = threads.getThreadCount();
		List<Peer> clients = new ArrayList<>();
		LinkedBlockingQueue<Peer> servers = new LinkedBlockingQueue<>();
		try (RdmaListener listener = this.serverSide.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				(request) -> {
					Peer server = new Peer(this.serverSide);
					server.connection = request.accept(server.qp, PrivateData.EMPTY, ConnectionEventListener.NONE);
					servers.add(server);
				})) {
			List<CompletableFuture<RdmaConnection>> connecting = new ArrayList<>();
			for (int i = 0; i < CONNECTIONS; i++) {
				Peer client = new Peer(this.clientSide);
				clients.add(client);
				connecting.add(this.clientSide.connect(client.qp, ConnectParameters.to(listener.localAddress())));
			}
			for (int i = 0; i < CONNECTIONS; i++) {
				clients.get(i).connection = connecting.get(i).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			}
		}
		// Each connection end has its receive thread (two per connection here, both ends in
		// this JVM); the transmit side adds the I/O threads of the two providers, not one
		// thread per end. A little slack for whatever else the JVM starts meanwhile.
		int grown = threads.getThreadCount() - before;
		assertThat(grown).as("threads added by %d connections", CONNECTIONS)
			.isLessThanOrEqualTo(2 * CONNECTIONS + 2 * IO_THREADS + 8);
		assertThat(namedThreads("siw-tx-")).as("transmit threads").isZero();
		assertThat(namedThreads("siw-io-")).as("I/O threads of both providers").isLessThanOrEqualTo(2 * IO_THREADS);
		// Every connection still carries a call each way.
		for (Peer client : clients) {
			client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.outbox, 0, 8)));
		}
		for (Peer client : clients) {
			client.awaitSendCompletions(1, DEADLINE);
		}
		for (int i = 0; i < CONNECTIONS; i++) {
			Peer server = servers.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(server).as("accepted connection %d", i).isNotNull();
			server.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(server.outbox, 0, 8)));
			server.awaitSendCompletions(1, DEADLINE);
		}
		assertThat(clients).allMatch((c) -> c.failedSends.get() == 0);
	}

	@Test
	void stalledMpaHandshakesHoldNoThreads() throws Exception {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		List<Socket> stalled = new ArrayList<>();
		try (RdmaListener listener = this.serverSide.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				(request) -> request.reject(PrivateData.EMPTY))) {
			// Warm up: the first accepted connection starts the server's I/O threads.
			stalled.add(new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort()));
			awaitPending(1);
			int before = threads.getThreadCount();
			for (int i = 1; i < STALLED; i++) {
				Socket socket = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort());
				stalled.add(socket);
				if (i % 2 == 0) {
					// Half a key: a handshake that trickles and stops (RFC 5044 §7.1.1's 16-byte key).
					socket.getOutputStream().write("MPA ID Req".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
					socket.getOutputStream().flush();
				}
			}
			awaitPending(STALLED);
			assertThat(threads.getThreadCount() - before).as("threads added by %d stalled MPA handshakes", STALLED)
				.isLessThanOrEqualTo(IO_THREADS + 4);
			// A real connection still gets through, and carries a call.
			Peer server = new Peer(this.serverSide);
			Peer client = new Peer(this.clientSide);
			SiwTestPeer.connect(server, client, DEADLINE);
			client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.outbox, 0, 8)));
			client.awaitSendCompletions(1, DEADLINE);
			assertThat(client.failedSends.get()).isZero();
		}
		finally {
			for (Socket socket : stalled) {
				socket.close();
			}
		}
		awaitPending(0);
	}

	private void awaitPending(int count) {
		SiwProvider provider = (SiwProvider) this.serverSide;
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (provider.pendingPassiveConnections() != count && System.nanoTime() - end < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
		assertThat(provider.pendingPassiveConnections()).as("connections waiting for their MPA Request").isEqualTo(count);
	}

	@Test
	void ioThreadsEndWhenTheProviderCloses() throws Exception {
		Peer server = new Peer(this.serverSide);
		Peer client = new Peer(this.clientSide);
		SiwTestPeer.connect(server, client, DEADLINE);
		List<Thread> io = Thread.getAllStackTraces().keySet().stream()
			.filter((t) -> t.getName().startsWith("siw-io-"))
			.toList();
		assertThat(io).as("I/O threads started by the connection's two ends").isNotEmpty();
		this.clientSide.close();
		this.serverSide.close();
		long end = System.nanoTime() + DEADLINE.toNanos();
		for (Thread thread : io) {
			thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
			assertThat(thread.isAlive()).as("%s after its provider closed", thread.getName()).isFalse();
		}
	}

	@Test
	void anIdleConnectionGivesItsTransmitBufferBackAndBorrowsOneWhenItSendsAgain() throws Exception {
		Peer server = new Peer(this.serverSide);
		Peer client = new Peer(this.clientSide);
		SiwTestPeer.connect(server, client, DEADLINE);
		client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.outbox, 0, 8)));
		client.awaitSendCompletions(1, DEADLINE);
		// The I/O thread looks every 100 ms; two looks without transmission release the buffer.
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (client.transmitter().holdsTransmitBuffer() && System.nanoTime() - end < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
		}
		assertThat(client.transmitter().holdsTransmitBuffer()).as("an idle connection's transmit buffer").isFalse();
		assertThat(((SiwProvider) this.clientSide).transmitBuffers().free()).as("buffers kept for the next borrower")
			.isPositive();
		client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(client.outbox, 0, 8)));
		client.awaitSendCompletions(2, DEADLINE);
		assertThat(client.failedSends.get()).isZero();
	}

	private static long namedThreads(String prefix) {
		return Thread.getAllStackTraces().keySet().stream().filter((t) -> t.getName().startsWith(prefix)).count();
	}

	private static final class Peer extends SiwTestPeer {

		private final WorkCompletion[] polled = new WorkCompletion[8];

		Peer(RdmaProvider provider) {
			super(provider);
		}

		@Override
		void receiveCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					// Flushed receives are not reposted: the queue pair is closing.
					if (this.polled[i].status() == CompletionStatus.SUCCESS) {
						repost((int) this.polled[i].wrId());
					}
				}
			}
		}

	}

}
