package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;

/**
 * The provider's connections share its {@code siw.io-threads} I/O threads for everything:
 * connecting (TCP connect and MPA exchange), receiving and what posting threads cannot
 * transmit at once. Opening hundreds of connections adds no thread, and the I/O threads stay
 * as many as set. Connections waiting for their MPA Request wait on the I/O threads too,
 * holding no thread. An idle connection holds neither a transmit nor a receive buffer, and
 * connections coming back from idle borrow those others gave back. One connection's flood
 * of bytes, or a peer trickling them, does not hold an I/O thread from the other connections
 * it serves.
 */
class SiwIoThreadsTest {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final int CONNECTIONS = 300;

	/** How long another connection's Send may wait while one floods or trickles. */
	private static final Duration BOUND = Duration.ofSeconds(3);

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
	void hundredsOfConnectionsAddNoThreadsAndANewOneStillCarriesCalls() throws Exception {
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
			// Both ends of every connection are in this JVM: what they add is the two
			// providers' I/O threads and the listener's accepting thread, whatever their number,
			// and a little slack for whatever else the JVM starts meanwhile.
			int grown = threads.getThreadCount() - before;
			assertThat(grown).as("threads added by %d connections", CONNECTIONS)
				.isLessThanOrEqualTo(2 * IO_THREADS + 1 + 4);
			assertThat(namedThreads("siw-rx-")).as("receive threads").isZero();
			assertThat(namedThreads("siw-tx-")).as("transmit threads").isZero();
			assertThat(namedThreads("siw-io-")).as("I/O threads of both providers").isLessThanOrEqualTo(2 * IO_THREADS);
			// Every connection carries a call each way.
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
			// A new connection on top of them still connects and carries calls both ways.
			Peer late = new Peer(this.clientSide);
			late.connection = this.clientSide.connect(late.qp, ConnectParameters.to(listener.localAddress()))
				.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			Peer lateServer = servers.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(lateServer).as("the late connection accepted").isNotNull();
			late.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(late.outbox, 0, 8)));
			late.awaitSendCompletions(1, DEADLINE);
			lateServer.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(lateServer.outbox, 0, 8)));
			lateServer.awaitSendCompletions(1, DEADLINE);
			assertThat(late.failedSends.get() + lateServer.failedSends.get()).isZero();
			assertThat(threads.getThreadCount() - before).as("threads after the late connection")
				.isLessThanOrEqualTo(2 * IO_THREADS + 1 + 4);
		}
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
		assertThat(((SiwProvider) this.clientSide).streamBuffers().free()).as("buffers kept for the next borrower")
			.isPositive();
		client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(client.outbox, 0, 8)));
		client.awaitSendCompletions(2, DEADLINE);
		assertThat(client.failedSends.get()).isZero();
	}

	@Test
	void anIdleConnectionGivesItsReceiveBufferBackAndBorrowsOneWhenBytesCome() throws Exception {
		Peer server = new Peer(this.serverSide);
		Peer client = new Peer(this.clientSide);
		SiwTestPeer.connect(server, client, DEADLINE);
		client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.outbox, 0, 8)));
		client.awaitSendCompletions(1, DEADLINE);
		server.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(server.outbox, 0, 8)));
		server.awaitSendCompletions(1, DEADLINE);
		// A receive path starts on its I/O thread once the connection is established, which the
		// accepting side may report first; and since a Send completes once the socket took it,
		// both Sends may have completed before then.
		long end = System.nanoTime() + DEADLINE.toNanos();
		RdmapReceiver clientPath = ((SiwConnection) client.connection).receivePath();
		RdmapReceiver serverPath = ((SiwConnection) server.connection).receivePath();
		while ((clientPath == null || serverPath == null) && System.nanoTime() - end < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			clientPath = ((SiwConnection) client.connection).receivePath();
			serverPath = ((SiwConnection) server.connection).receivePath();
		}
		assertThat(clientPath).as("the client's receive path").isNotNull();
		assertThat(serverPath).as("the server's receive path").isNotNull();
		while (server.received.get() == 0 && System.nanoTime() - end < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
		assertThat(server.received.get()).as("the client's first Send, received").isOne();
		// The I/O thread looks every 100 ms; two looks without a receive turn release the buffer.
		while ((clientPath.holdsReceiveBuffer() || serverPath.holdsReceiveBuffer()) && System.nanoTime() - end < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
		}
		assertThat(clientPath.holdsReceiveBuffer()).as("an idle client's receive buffer").isFalse();
		assertThat(serverPath.holdsReceiveBuffer()).as("an idle server's receive buffer").isFalse();
		int received = server.received.get();
		client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(client.outbox, 0, 8)));
		client.awaitSendCompletions(2, DEADLINE);
		// The Send completed when the socket took it (as on Linux's siw), not when the server
		// received it.
		long due = System.nanoTime() + DEADLINE.toNanos();
		while (server.received.get() == received && System.nanoTime() - due < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
		assertThat(server.received.get()).as("Sends the server received").isEqualTo(received + 1);
		assertThat(client.failedSends.get()).isZero();
	}

	@Test
	void connectionsComingBackFromIdleBorrowTheBuffersOthersGaveBack() throws Exception {
		// Three times the free buffers a provider keeps however quiet it is.
		int connections = 12 * IO_THREADS;
		List<Peer> clients = new ArrayList<>();
		List<Peer> servers = new ArrayList<>();
		for (int i = 0; i < connections; i++) {
			Peer server = new Peer(this.serverSide);
			Peer client = new Peer(this.clientSide);
			SiwTestPeer.connect(server, client, DEADLINE);
			servers.add(server);
			clients.add(client);
		}
		StreamBuffers clientBuffers = ((SiwProvider) this.clientSide).streamBuffers();
		StreamBuffers serverBuffers = ((SiwProvider) this.serverSide).streamBuffers();
		sendOnEach(clients, servers, 1);
		// The I/O threads look every 100 ms; two looks without traffic give a buffer back.
		long end = System.nanoTime() + DEADLINE.toNanos();
		while ((clientBuffers.lent() > 0 || serverBuffers.lent() > 0) && System.nanoTime() - end < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
		}
		assertThat(clientBuffers.lent()).as("client buffers still lent").isZero();
		assertThat(serverBuffers.lent()).as("server buffers still lent").isZero();
		long clientAllocated = clientBuffers.allocated();
		long serverAllocated = serverBuffers.allocated();
		assertThat(clientAllocated).as("transmit buffers the clients allocated").isGreaterThanOrEqualTo(connections);
		assertThat(serverAllocated).as("receive buffers the servers allocated").isGreaterThanOrEqualTo(connections);
		// Every connection calls again after giving its buffers back. Only a trim between the two
		// rounds, after a whole window (ten looks) in which the buffers given back lay unused,
		// could have let some go.
		sendOnEach(clients, servers, 2);
		assertThat(clientBuffers.allocated() - clientAllocated)
			.as("transmit buffers allocated by %d connections coming back from idle", connections)
			.isLessThanOrEqualTo(connections / 4);
		assertThat(serverBuffers.allocated() - serverAllocated)
			.as("receive buffers allocated by %d connections coming back from idle", connections)
			.isLessThanOrEqualTo(connections / 4);
		assertThat(clients).allMatch((c) -> c.failedSends.get() == 0);
	}

	private static void sendOnEach(List<Peer> clients, List<Peer> servers, int count) throws InterruptedException {
		for (Peer client : clients) {
			client.qp.postSend(SendWorkRequest.send(count, ScatterGatherEntry.of(client.outbox, 0, 8)));
		}
		for (int i = 0; i < clients.size(); i++) {
			clients.get(i).awaitSendCompletions(count, DEADLINE);
			assertThat(servers.get(i).awaitReceived(count, DEADLINE)).as("Sends received on connection %d", i).isTrue();
		}
	}

	@Test
	void aFloodOnOneConnectionDoesNotHoldTheIoThreadFromAnothersSend() throws Exception {
		RdmaProvider oneThread = RdmaProviders.open("siw",
				RdmaProviderConfig.defaults().with(SiwSettings.IO_THREADS, "1"));
		LinkedBlockingQueue<Peer> accepted = new LinkedBlockingQueue<>();
		AtomicBoolean stop = new AtomicBoolean();
		AtomicLong written = new AtomicLong();
		Thread flood = null;
		try (RdmaListener listener = acceptInto(oneThread, accepted);
				HostilePeer flooder = HostilePeer.connect(listener)) {
			Peer flooded = accepted.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(flooded).as("the flooding peer accepted").isNotNull();
			// Each Send the server receives costs its handler 20 µs, on the I/O thread: the
			// peer writes Sends far faster than that, so the server never finds the socket empty.
			flooded.handlerNanos = TimeUnit.MICROSECONDS.toNanos(20);
			Peer client = new Peer(this.clientSide);
			client.connection = this.clientSide.connect(client.qp, ConnectParameters.to(listener.localAddress()))
				.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			Peer quiet = accepted.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(quiet).as("the quiet connection accepted").isNotNull();
			flood = new Thread(() -> {
				long until = System.nanoTime() + DEADLINE.toNanos();
				byte[] payload = new byte[8];
				java.io.ByteArrayOutputStream chunk = new java.io.ByteArrayOutputStream();
				try {
					while (!stop.get() && System.nanoTime() - until < 0) {
						chunk.reset();
						while (chunk.size() < 256 * 1024) {
							chunk.write(flooder.send(payload));
						}
						flooder.write(chunk.toByteArray());
						written.addAndGet(chunk.size());
					}
				}
				catch (java.io.IOException ex) {
					// closed at the end of the test
				}
			}, "flood");
			flood.start();
			// The flood is under way: the server's one I/O thread has been reading it.
			long end = System.nanoTime() + DEADLINE.toNanos();
			while (flooded.received.get() < 1000 && System.nanoTime() - end < 0) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
			}
			assertThat(flooded.received.get()).as("Sends of the flood received").isGreaterThanOrEqualTo(1000);
			int received = quiet.received.get();
			client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.outbox, 0, 8)));
			assertThat(quiet.awaitReceived(received + 1, BOUND)).as("the quiet connection's Send arrives within %s"
					+ " while the other floods its I/O thread", BOUND).isTrue();
			assertThat(flood.isAlive()).as("still flooding when the Send arrived").isTrue();
			assertThat(flooded.connection.isConnected()).as("the flooded connection is still up").isTrue();
		}
		finally {
			stop.set(true);
			if (flood != null) {
				flood.join(DEADLINE.toMillis());
			}
			oneThread.close();
		}
	}

	@Test
	void aPeerTricklingAnFpduDoesNotHoldTheIoThreadFromAnothersSend() throws Exception {
		RdmaProvider oneThread = RdmaProviders.open("siw",
				RdmaProviderConfig.defaults().with(SiwSettings.IO_THREADS, "1"));
		LinkedBlockingQueue<Peer> accepted = new LinkedBlockingQueue<>();
		java.util.concurrent.ScheduledExecutorService trickle = java.util.concurrent.Executors
			.newSingleThreadScheduledExecutor();
		try (RdmaListener listener = acceptInto(oneThread, accepted);
				HostilePeer trickler = HostilePeer.connect(listener)) {
			Peer trickled = accepted.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(trickled).as("the trickling peer accepted").isNotNull();
			MemoryRegion target = trickled.pd.registerMemory(ByteBuffer.allocateDirect(64 * 1024),
					EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
			// The header and a little of a 60,000-byte RDMA Write, then a byte every 20 ms.
			byte[] write = trickler.tagged(true, RdmapOpcode.RDMA_WRITE, target.stag(), target.address(),
					new byte[60_000]);
			trickler.write(write, 0, 100);
			AtomicInteger sent = new AtomicInteger(100);
			trickle.scheduleAtFixedRate(() -> {
				try {
					int at = sent.getAndIncrement();
					trickler.write(write, at, at + 1);
				}
				catch (java.io.IOException ex) {
					throw new IllegalStateException(ex);
				}
			}, 20, 20, TimeUnit.MILLISECONDS);
			Peer client = new Peer(this.clientSide);
			client.connection = this.clientSide.connect(client.qp, ConnectParameters.to(listener.localAddress()))
				.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			Peer quiet = accepted.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			assertThat(quiet).as("the quiet connection accepted").isNotNull();
			for (int i = 0; i < 10; i++) {
				int received = quiet.received.get();
				client.qp.postSend(SendWorkRequest.send(i, ScatterGatherEntry.of(client.outbox, 0, 8)));
				assertThat(quiet.awaitReceived(received + 1, BOUND))
					.as("Send %d arrives within %s while a peer trickles an FPDU", i, BOUND).isTrue();
			}
			assertThat(trickled.connection.isConnected()).as("the trickling connection, within its deadline").isTrue();
		}
		finally {
			trickle.shutdownNow();
			oneThread.close();
		}
	}

	/** Listens on {@code provider}, accepting every request with a new peer put in {@code accepted}. */
	private static RdmaListener acceptInto(RdmaProvider provider, LinkedBlockingQueue<Peer> accepted) {
		return provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), (request) -> {
			Peer peer = new Peer(provider);
			peer.connection = request.accept(peer.qp, PrivateData.EMPTY, ConnectionEventListener.NONE);
			accepted.add(peer);
		});
	}

	private static long namedThreads(String prefix) {
		return Thread.getAllStackTraces().keySet().stream().filter((t) -> t.getName().startsWith(prefix)).count();
	}

	private static final class Peer extends SiwTestPeer {

		private final WorkCompletion[] polled = new WorkCompletion[8];

		/** Sends received. */
		final AtomicInteger received = new AtomicInteger();

		/** How long the receive handler works on each Send. */
		volatile long handlerNanos;

		Peer(RdmaProvider provider) {
			super(provider);
		}

		/** @return whether {@code count} Sends were received within {@code bound} */
		boolean awaitReceived(int count, Duration bound) throws InterruptedException {
			long end = System.nanoTime() + bound.toNanos();
			synchronized (this.received) {
				while (this.received.get() < count) {
					long left = end - System.nanoTime();
					if (left <= 0) {
						return false;
					}
					TimeUnit.NANOSECONDS.timedWait(this.received, left);
				}
			}
			return true;
		}

		@Override
		void receiveCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					// Flushed receives are not reposted: the queue pair is closing.
					if (this.polled[i].status() == CompletionStatus.SUCCESS) {
						repost((int) this.polled[i].wrId());
						long busy = System.nanoTime() + this.handlerNanos;
						while (this.handlerNanos > 0 && System.nanoTime() - busy < 0) {
							Thread.onSpinWait();
						}
						synchronized (this.received) {
							this.received.incrementAndGet();
							this.received.notifyAll();
						}
					}
				}
			}
		}

	}

}
