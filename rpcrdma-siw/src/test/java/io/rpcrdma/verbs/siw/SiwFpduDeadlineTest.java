package io.rpcrdma.verbs.siw;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WaitingCaller;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.verbs.conformance.Endpoint;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;
import io.rpcrdma.verbs.siw.wire.TerminateError;

/**
 * A peer that starts an FPDU, or a DDP message, and does not finish it holds the connection's
 * receive path only until {@code siw.fpdu-timeout-millis}: then the connection ends with MPA's
 * "TCP connection lost" Terminate (RFC 5044 §8) and its receives flush. Bytes trickling in do
 * not put the deadline off; a message whose next segment does not come is held to it as a
 * frame is; whichever thread runs the receive path when the peer stops (the receive thread, or
 * a caller reading its own reply) is held to it; and a connection idle between messages has
 * none. ({@link SiwHostilePeerTest} shows the plain stalls, large and small, and that other
 * connections work on meanwhile.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwFpduDeadlineTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	/** The deadline the provider under test keeps: short, so that the tests are. */
	private static final Duration FPDU_TIMEOUT = Duration.ofMillis(1500);

	/** How late the Terminate may come after the deadline on a busy 2-core machine. */
	private static final Duration SLACK = Duration.ofSeconds(5);

	/** The payload of the stalled RDMA Write: its FPDU is 64 KiB. */
	private static final int WRITE = 65_000;

	private RdmaProvider provider;

	private MemoryRegion target;

	private RdmaListener listener;

	private final LinkedBlockingQueue<Endpoint> acceptedQueue = new LinkedBlockingQueue<>();

	private Server server;

	@AfterEach
	void close() {
		if (this.server != null) {
			this.server.close();
		}
		if (this.provider != null) {
			this.provider.close();
		}
	}

	@Test
	void bytesTricklingInDoNotPutTheDeadlineOff() throws Exception {
		listen(RdmaProviderConfig.defaults());
		ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
		try (HostilePeer peer = HostilePeer.connect(this.listener.localAddress(), DEADLINE)) {
			nextAccepted();
			byte[] write = peer.tagged(true, RdmapOpcode.RDMA_WRITE, this.target.stag(), this.target.address(),
					filled(WRITE, 0x5A));
			long start = System.nanoTime();
			peer.write(write, 0, 100);
			AtomicInteger sent = new AtomicInteger(100);
			// A byte every 100 ms: the frame would take two hours.
			trickle.scheduleAtFixedRate(() -> {
				try {
					int at = sent.getAndIncrement();
					peer.write(write, at, at + 1);
				}
				catch (java.io.IOException ex) {
					throw new IllegalStateException(ex);
				}
			}, 100, 100, TimeUnit.MILLISECONDS);
			peer.assertTerminatedWith(TerminateError.MPA_TCP_CONNECTION_LOST);
			assertEndedAtTheDeadline(start);
			assertThat(sent.get()).as("bytes the peer sent").isGreaterThan(101);
		}
		finally {
			trickle.shutdownNow();
		}
	}

	@Test
	void aMessageWhoseNextSegmentNeverComesIsHeldToTheDeadline() throws Exception {
		listen(RdmaProviderConfig.defaults());
		try (HostilePeer peer = HostilePeer.connect(this.listener.localAddress(), DEADLINE)) {
			Endpoint stalled = nextAccepted();
			// A whole first segment of a Send (L clear): the message owes its next segment.
			byte[] first = peer.fpdu((writer, out) -> writer.writeUntagged(out, false, RdmapOpcode.SEND, 0, 0, 1, 0,
					ByteBuffer.allocate(16), 0, 16)).array();
			long start = System.nanoTime();
			peer.write(first);
			peer.assertTerminatedWith(TerminateError.MPA_TCP_CONNECTION_LOST);
			assertEndedAtTheDeadline(start);
			assertThat(stalled.receives.next().status()).as("the receive the first segment went into")
				.isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		}
	}

	@Test
	void anIdleConnectionBetweenMessagesHasNoDeadline() throws Exception {
		listen(RdmaProviderConfig.defaults());
		try (HostilePeer peer = HostilePeer.connect(this.listener.localAddress(), DEADLINE)) {
			Endpoint served = nextAccepted();
			peer.write(peer.send(filled(8, 1)));
			assertThat(served.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			// Three deadlines pass without a byte, between messages; the provider sends nothing
			// and keeps the connection.
			served.postReceive(2, served.register(64, 0, LOCAL_WRITE));
			peer.socket().setSoTimeout((int) FPDU_TIMEOUT.multipliedBy(3).toMillis());
			assertThat(peer.socket().getInputStream().available()).isZero();
			assertThatThrownBy(() -> peer.socket().getInputStream().read())
				.isInstanceOf(SocketTimeoutException.class);
			assertThat(served.connection.isConnected()).isTrue();
			peer.write(peer.send(filled(8, 2)));
			assertThat(served.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);
		}
	}

	@Test
	void aCallerReadingItsOwnReplyWhenThePeerStallsIsHeldToTheDeadlineToo() throws Exception {
		this.provider = RdmaProviders.open("siw", config(RdmaProviderConfig.defaults()));
		this.server = new Server(this.provider);
		this.target = this.server.pd.registerMemory(ByteBuffer.allocateDirect(64 * 1024),
				EnumSet.of(LOCAL_WRITE, REMOTE_WRITE));
		CompletableFuture<Void> acceptedServer = new CompletableFuture<>();
		this.listener = this.provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), (request) -> {
			this.server.connection = request.accept(this.server.qp, PrivateData.EMPTY, null);
			acceptedServer.complete(null);
		});
		try (HostilePeer peer = HostilePeer.connect(this.listener.localAddress(), DEADLINE)) {
			acceptedServer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
			CompletableFuture<Long> stalledAt = new CompletableFuture<>();
			CompletableFuture<Boolean> stalledCall = new CompletableFuture<>();
			// Calls one after another until one of them meets the stalled frame.
			Thread caller = new Thread(() -> {
				try {
					for (int i = 0; i < 1000; i++) {
						boolean replied = this.server.call();
						if (stalledAt.isDone()) {
							stalledCall.complete(replied);
							return;
						}
					}
					throw new AssertionError("No call led the receive path in 1000");
				}
				catch (Throwable ex) {
					stalledCall.completeExceptionally(ex);
				}
			}, "stalled-caller");
			caller.setDaemon(true);
			Thread answering = new Thread(() -> answer(peer, caller, stalledAt), "hostile-peer-answers");
			answering.setDaemon(true);
			answering.start();
			caller.start();
			long start = stalledAt.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(this.server.stalledLeader.get()).as("the thread running the path inside the stalled frame")
				.isEqualTo(caller);
			Boolean replied = stalledCall.get(FPDU_TIMEOUT.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
			assertThat(replied).as("the stalled call got no reply").isFalse();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(FPDU_TIMEOUT);
			peer.assertTerminatedWith(TerminateError.MPA_TCP_CONNECTION_LOST);
			assertThat(this.server.flushed.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
				.isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		}
	}

	/**
	 * The peer answers each Send with one of its own, until a Send arrives while the caller
	 * that waits for its answer runs the receive path itself (the receive thread stepped down):
	 * that one it answers with the first 1000 bytes of a 64 KiB RDMA Write, and nothing more.
	 */
	private void answer(HostilePeer peer, Thread caller, CompletableFuture<Long> stalledAt) {
		try {
			ReceiveRole role = ((SiwConnection) this.server.connection).receiveRole();
			while (true) {
				peer.await(RdmapOpcode.SEND, true);
				if (role.holder() != caller) {
					peer.write(peer.send(filled(8, 3)));
					continue;
				}
				byte[] write = peer.tagged(true, RdmapOpcode.RDMA_WRITE, this.target.stag(), this.target.address(),
						filled(WRITE, 0x5A));
				long start = System.nanoTime();
				peer.write(write, 0, 1000);
				// Whoever runs the path places the first bytes into the region: still the caller,
				// which leads until its answer comes or the connection ends.
				long end = System.nanoTime() + DEADLINE.toNanos();
				while (this.target.buffer().get(900) != 0x5A) {
					assertThat(System.nanoTime() - end).as("the first bytes are placed").isNegative();
					Thread.onSpinWait();
				}
				this.server.stalledLeader.set(role.holder());
				stalledAt.complete(start);
				return;
			}
		}
		catch (Throwable ex) {
			stalledAt.completeExceptionally(ex);
		}
	}

	// ---- harness ------------------------------------------------------------------------------

	private static RdmaProviderConfig config(RdmaProviderConfig base) {
		return base.with(SiwSettings.FPDU_TIMEOUT_MILLIS, Long.toString(FPDU_TIMEOUT.toMillis()));
	}

	private void listen(RdmaProviderConfig base) {
		this.provider = RdmaProviders.open("siw", config(base));
		ProtectionDomain pd = this.provider.allocateProtectionDomain();
		this.target = pd.registerMemory(ByteBuffer.allocateDirect(64 * 1024), EnumSet.of(LOCAL_WRITE, REMOTE_WRITE));
		this.listener = this.provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), (request) -> {
			Endpoint served = new Endpoint(this.provider, pd, DEADLINE, UnaryOperator.identity());
			served.postReceive(1, served.register(64, 0, LOCAL_WRITE));
			served.connection = request.accept(served.qp, PrivateData.EMPTY, served.events);
			this.acceptedQueue.add(served);
		});
	}

	private Endpoint nextAccepted() throws InterruptedException {
		Endpoint served = this.acceptedQueue.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(served).as("a connection accepted").isNotNull();
		return served;
	}

	private static void assertEndedAtTheDeadline(long start) {
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(took).as("time from the stall to the Terminate").isGreaterThanOrEqualTo(FPDU_TIMEOUT)
			.isLessThan(FPDU_TIMEOUT.plus(SLACK));
	}

	private static byte[] filled(int length, int value) {
		byte[] bytes = new byte[length];
		Arrays.fill(bytes, (byte) value);
		return bytes;
	}

	/** The provider's end of the caller test: callers wait for the peer's Sends. */
	private static final class Server extends SiwTestPeer {

		final AtomicInteger replies = new AtomicInteger();

		final LinkedBlockingQueue<CompletionStatus> flushed = new LinkedBlockingQueue<>();

		final AtomicReference<Thread> stalledLeader = new AtomicReference<>();

		private final WorkCompletion[] polled = new WorkCompletion[8];

		private volatile WaitingCaller waiter;

		Server(RdmaProvider provider) {
			super(provider);
		}

		/**
		 * Posts a Send and waits for the peer's answer as a synchronous call does.
		 * @return whether this thread read the answer itself; {@code false} if the connection ended
		 */
		boolean call() {
			int target = this.replies.get() + 1;
			WaitingCaller caller = WaitingCaller.expect();
			this.waiter = caller;
			try {
				this.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(this.outbox, 0, 8)));
				boolean led = caller.receiveUntil(() -> this.replies.get() >= target);
				long end = System.nanoTime() + DEADLINE.toNanos();
				while (!led && this.replies.get() < target && this.connection.isConnected()) {
					assertThat(System.nanoTime() - end).as("the answer arrives").isNegative();
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
				}
				return led && this.replies.get() >= target;
			}
			finally {
				this.waiter = null;
				caller.end();
			}
		}

		@Override
		void receiveCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					WorkCompletion wc = this.polled[i];
					if (wc.status() != CompletionStatus.SUCCESS) {
						this.flushed.add(wc.status());
						continue;
					}
					repost((int) wc.wrId());
					this.replies.incrementAndGet();
					WaitingCaller caller = this.waiter;
					if (caller != null) {
						caller.outcomeArrived();
					}
				}
			}
		}

	}

}
