package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.xdr.OpaquePadding;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Calls through {@link RpcTransport#call(OutboundCall, CallCompletion)}: the path without a
 * future, whose pending calls are reused. Each reply reaches the completion of its own XID in
 * the buffer that completion offered; nothing reaches a call that reused a finished one.
 */
abstract class CallCompletionTests extends RpcRdmaTransportKit {

	/** A completion reused call after call, like the RPC layer's; counts every tell. */
	static final class Recorder implements CallCompletion {

		final ByteBuffer own;

		final AtomicInteger offers = new AtomicInteger();

		final AtomicInteger replies = new AtomicInteger();

		final AtomicInteger failures = new AtomicInteger();

		volatile CompletableFuture<Object> outcome = new CompletableFuture<>();

		Recorder(ByteBuffer own) {
			this.own = own;
		}

		CompletableFuture<Object> arm() {
			this.outcome = new CompletableFuture<>();
			return this.outcome;
		}

		@Override
		public ByteBuffer replyBuffer(int length) {
			this.offers.incrementAndGet();
			return (this.own != null) ? this.own.clear() : null;
		}

		@Override
		public void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding) {
			this.replies.incrementAndGet();
			this.outcome.complete(message);
		}

		@Override
		public void failed(Throwable failure) {
			this.failures.incrementAndGet();
			this.outcome.complete(failure);
		}

		int tells() {
			return this.replies.get() + this.failures.get();
		}

	}

	private Object outcome(CompletableFuture<Object> outcome) throws Exception {
		return outcome.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
	}

	private static byte[] echoed(int xid, ByteBuffer message) {
		return RpcWorkload.opaqueResult(new InboundReply(xid, 1, message, List.of()));
	}

	@Test
	void concurrentCallsReachTheirOwnCompletionsInTheBuffersTheyOffered() throws Exception {
		RpcRdmaClientConnection client = client(echoServer(config()), config());
		int threads = 4;
		int callsPerThread = 400;
		int inFlight = 3;
		ExecutorService callers = Executors.newFixedThreadPool(threads);
		try {
			List<Future<Integer>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				done.add(callers.submit(() -> {
					Recorder[] slots = new Recorder[inFlight];
					for (int s = 0; s < inFlight; s++) {
						slots[s] = new Recorder(ByteBuffer.allocate(512));
					}
					@SuppressWarnings("unchecked")
					CompletableFuture<Object>[] outcomes = new CompletableFuture[inFlight];
					int[] xids = new int[inFlight];
					int checked = 0;
					for (int i = 0; i < callsPerThread + inFlight; i++) {
						int slot = i % inFlight;
						if (outcomes[slot] != null) {
							Object result = outcome(outcomes[slot]);
							assertThat(result).as("the reply to XID %d", xids[slot]).isSameAs(slots[slot].own);
							int seed = xids[slot];
							assertThat(echoed(xids[slot], (ByteBuffer) result))
								.isEqualTo(RpcWorkload.pattern(8 + seed % 56, seed));
							checked++;
						}
						if (i < callsPerThread) {
							int xid = thread * 100_000 + i + 1;
							xids[slot] = xid;
							outcomes[slot] = slots[slot].arm();
							client.call(RpcWorkload.echo(xid, RpcWorkload.pattern(8 + xid % 56, xid), false, 0, 0),
									slots[slot]);
						}
						else {
							outcomes[slot] = null;
						}
					}
					for (Recorder recorder : slots) {
						assertThat(recorder.failures).hasValue(0);
						assertThat(recorder.offers.get()).isEqualTo(recorder.replies.get());
					}
					return checked;
				}));
			}
			for (Future<Integer> each : done) {
				assertThat(each.get(deadline().toMillis() * 4, TimeUnit.MILLISECONDS)).isEqualTo(callsPerThread);
			}
		}
		finally {
			callers.shutdownNow();
		}
		assertThat(client.pendingCalls()).isZero();
		assertThat(client.credits().outstanding()).isZero();
		// Finished calls were kept for reuse, within the bound.
		assertThat(client.freeCalls()).isBetween(1, 256);
	}

	@Test
	void aCompletionWithoutABufferOfItsOwnGetsOneFromTheTransport() throws Exception {
		RpcRdmaClientConnection client = client(echoServer(config()), config());
		Recorder none = new Recorder(null);
		Recorder tooSmall = new Recorder(ByteBuffer.allocate(8));
		for (int xid = 1; xid <= 3; xid++) {
			CompletableFuture<Object> outcome = none.arm();
			client.call(RpcWorkload.echo(xid, RpcWorkload.pattern(20, xid), false, 0, 0), none);
			ByteBuffer message = (ByteBuffer) outcome(outcome);
			assertThat(echoed(xid, message)).isEqualTo(RpcWorkload.pattern(20, xid));

			CompletableFuture<Object> small = tooSmall.arm();
			client.call(RpcWorkload.echo(xid + 10, RpcWorkload.pattern(20, xid), false, 0, 0), tooSmall);
			ByteBuffer other = (ByteBuffer) outcome(small);
			assertThat(other).isNotSameAs(tooSmall.own);
			assertThat(echoed(xid + 10, other)).isEqualTo(RpcWorkload.pattern(20, xid));
		}
		assertThat(none.offers).hasValue(3);
		assertThat(none.replies).hasValue(3);
	}

	@Test
	void theFuturePathAndTheCompletionPathShareOneConnection() throws Exception {
		RpcRdmaClientConnection client = client(echoServer(config()), config());
		Recorder recorder = new Recorder(ByteBuffer.allocate(256));
		for (int xid = 1; xid <= 20; xid++) {
			CompletableFuture<InboundReply> future = client.call(RpcWorkload.echo(1000 + xid, RpcWorkload.pattern(12, xid),
					false, 0, 0));
			CompletableFuture<Object> outcome = recorder.arm();
			client.call(RpcWorkload.echo(xid, RpcWorkload.pattern(16, xid), false, 0, 0), recorder);
			InboundReply reply = await(future);
			assertThat(reply.xid()).isEqualTo(1000 + xid);
			assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(12, xid));
			assertThat(echoed(xid, (ByteBuffer) outcome(outcome))).isEqualTo(RpcWorkload.pattern(16, xid));
		}
		assertThat(recorder.tells()).isEqualTo(20);
	}

	/** A completion that parks its caller until told, allocating nothing. */
	static final class Parker implements CallCompletion {

		private final ByteBuffer own = ByteBuffer.allocate(256);

		private volatile Thread waiter;

		private volatile int xid;

		private volatile ByteBuffer message;

		private volatile Throwable failure;

		/** The thread that told the last reply: the connection's completion thread. */
		volatile Thread replier;

		void arm(int xid) {
			this.xid = xid;
			this.message = null;
			this.failure = null;
			this.waiter = Thread.currentThread();
		}

		@Override
		public ByteBuffer replyBuffer(int length) {
			return this.own.clear();
		}

		@Override
		public void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding) {
			this.replier = Thread.currentThread();
			this.message = message;
			LockSupport.unpark(this.waiter);
		}

		@Override
		public void failed(Throwable failure) {
			this.failure = failure;
			LockSupport.unpark(this.waiter);
		}

		/** Waits for the reply; fails the test on anything else. */
		void await(long deadline) {
			while (this.message == null && this.failure == null) {
				if (System.nanoTime() - deadline > 0) {
					throw new AssertionError("No reply to XID " + this.xid + " in time");
				}
				LockSupport.parkNanos(this, 1_000_000);
			}
			if (this.failure != null) {
				throw new AssertionError("The call with XID " + this.xid + " failed", this.failure);
			}
			if (this.message != this.own || this.message.getInt(0) != this.xid) {
				throw new AssertionError("The reply to XID " + this.xid + " did not arrive in the offered buffer");
			}
		}

	}

	/**
	 * @return whether the client's completions run on a thread of their own, not shared with the
	 * server's, so that thread's allocation is the client's alone
	 */
	boolean clientCompletionsHaveTheirOwnThread() {
		return false;
	}

	@Test
	void aSmallCallAllocatesNothingOnTheCallingOrCompletionThread() throws Exception {
		// A pool without leak tracking, which records a stack trace at every lease.
		RegisteredMemoryPool untracked = closeAfterTest(new RegisteredMemoryPool(
				this.clientProvider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2)));
		RpcRdmaClientConnection client = closeAfterTest(RpcRdmaClientConnection
			.connect(this.clientProvider, untracked, echoServer(config()).localAddress(), config(), this.versionCache)
			.get(deadline().toMillis(), TimeUnit.MILLISECONDS));
		Parker completion = new Parker();
		OutboundCall call = RpcWorkload.echo(1, new byte[8], false, 0, 0);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		int calls = 2_000;
		long deadline = System.nanoTime() + deadline().toNanos() * 4;
		int xid = 0;
		for (int i = 0; i < calls; i++) {
			xid = call(client, call, completion, xid, deadline);
		}
		// Measured over windows until one is allocation-free (at most ten): on a loaded machine
		// the JIT may not have compiled the call path after the warm-up, and an interpreted or
		// C1-compiled path allocates what C2's escape analysis removes. Steady state is what
		// is claimed.
		long perCall = Long.MAX_VALUE;
		long receiverPerCall = Long.MAX_VALUE;
		boolean ownThread = clientCompletionsHaveTheirOwnThread();
		for (int window = 0; window < 10 && (perCall >= 16 || (ownThread && receiverPerCall >= 16)); window++) {
			long receiverBefore = threads.getThreadAllocatedBytes(completion.replier.getId());
			long before = threads.getCurrentThreadAllocatedBytes();
			for (int i = 0; i < calls; i++) {
				xid = call(client, call, completion, xid, deadline);
			}
			perCall = (threads.getCurrentThreadAllocatedBytes() - before) / calls;
			receiverPerCall = (threads.getThreadAllocatedBytes(completion.replier.getId()) - receiverBefore) / calls;
		}
		assertThat(perCall).as("bytes the calling thread allocates per small call").isLessThan(16);
		if (ownThread) {
			assertThat(receiverPerCall).as("bytes the completion thread allocates per small reply").isLessThan(16);
		}
	}

	/** One small call, awaited; returns its xid. */
	private static int call(RpcRdmaClientConnection client, OutboundCall call, Parker completion, int previousXid,
			long deadline) throws Exception {
		int xid = previousXid + 1;
		// The transport copies the message before call() returns, so one buffer serves.
		call.message().putInt(0, xid);
		completion.arm(xid);
		client.call(call, completion);
		completion.await(deadline);
		return xid;
	}

	// ---- against a raw responder, which answers whatever the test says -----------------------

	private RpcRdmaClientConnection clientOfRawServer(CompletableFuture<RawPeer> accepted) throws Exception {
		RdmaListener listener = RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY, deadline(),
				accepted);
		closeAfterTest(listener::close);
		return closeAfterTest(RpcRdmaClientConnection
			.connect(this.clientProvider, this.clientPool, listener.localAddress(), v1Only(), this.versionCache)
			.get(deadline().toMillis(), TimeUnit.MILLISECONDS));
	}

	private static void answer(RawPeer server, int xid, byte[] result) {
		server.send(new RdmaMsg(xid, 8, ChunkLists.EMPTY), RpcWorkload.reply(xid, result, true).message());
	}

	@Test
	void aSmallCallGoesOutExactlyAsTheHeaderEncoderWritesIt() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(accepted);
		RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		OutboundCall call = RpcWorkload.echo(0x51, RpcWorkload.pattern(8, 1), false, 0, 0);
		ByteBuffer expected = ByteBuffer.allocate(28 + call.message().remaining());
		TransportHeaderEncoder.encode(new RdmaMsg(0x51, v1Only().creditsRequested(), ChunkLists.EMPTY),
				new XdrEncoder(expected));
		expected.put(call.message().duplicate()).flip();

		client.call(call, new Recorder(null));

		assertThat(server.receive()).isEqualTo(expected);
		assertThat(client.stats().inlineMessages()).isEqualTo(1);
	}

	@Test
	void aLateOrDuplicateReplyIsDroppedAndNeverReachesTheCallThatReusedItsSlot() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(accepted);
		RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		Recorder recorder = new Recorder(ByteBuffer.allocate(256));

		CompletableFuture<Object> first = recorder.arm();
		client.call(RpcWorkload.echo(1, new byte[4], false, 0, 0), recorder);
		assertThat(header(server.receive()).xid()).isEqualTo(1);
		answer(server, 1, RpcWorkload.pattern(4, 1));
		assertThat(echoed(1, (ByteBuffer) outcome(first))).isEqualTo(RpcWorkload.pattern(4, 1));

		// The finished call's slot is reused for XID 2; XID 1 is answered again before XID 2.
		CompletableFuture<Object> second = recorder.arm();
		client.call(RpcWorkload.echo(2, new byte[4], false, 0, 0), recorder);
		assertThat(header(server.receive()).xid()).isEqualTo(2);
		answer(server, 1, RpcWorkload.pattern(4, 99));
		answer(server, 2, RpcWorkload.pattern(4, 2));
		assertThat(echoed(2, (ByteBuffer) outcome(second))).isEqualTo(RpcWorkload.pattern(4, 2));

		// A call failed by a bad header; its proper reply comes late, during the next call.
		CompletableFuture<Object> third = recorder.arm();
		client.call(RpcWorkload.echo(3, new byte[4], false, 0, 0), recorder);
		assertThat(header(server.receive()).xid()).isEqualTo(3);
		server.send(bytes(3, 1, 8, 0, 7));
		assertThat(outcome(third)).isInstanceOf(ChunkValidationException.class);
		CompletableFuture<Object> fourth = recorder.arm();
		client.call(RpcWorkload.echo(4, new byte[4], false, 0, 0), recorder);
		assertThat(header(server.receive()).xid()).isEqualTo(4);
		answer(server, 3, RpcWorkload.pattern(4, 3));
		answer(server, 4, RpcWorkload.pattern(4, 4));
		assertThat(echoed(4, (ByteBuffer) outcome(fourth))).isEqualTo(RpcWorkload.pattern(4, 4));

		assertThat(recorder.replies).hasValue(3);
		assertThat(recorder.failures).hasValue(1);
		assertThat(client.isOpen()).isTrue();
		assertThat(client.pendingCalls()).isZero();
		assertThat(client.credits().outstanding()).isZero();
	}

	@Test
	void losingTheConnectionFailsEveryPendingCompletionExactlyOnce() throws Exception {
		CountDownLatch arrived = new CountDownLatch(1);
		RpcRdmaServer server = server(config(), (call, replier) -> arrived.countDown());
		RpcRdmaClientConnection client = client(server, config());
		List<Recorder> recorders = new ArrayList<>();
		List<CompletableFuture<Object>> outcomes = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			Recorder recorder = new Recorder(ByteBuffer.allocate(256));
			recorders.add(recorder);
			outcomes.add(recorder.arm());
			client.call(RpcWorkload.echo(i + 1, new byte[16], false, 0, 0), recorder);
		}
		assertThat(arrived.await(deadline().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		// One call holds the only credit before any reply; the rest wait for one.
		assertThat(client.credits().waiting()).isEqualTo(5);

		onlyConnection(server).close();
		await(client.closeFuture());

		for (int i = 0; i < recorders.size(); i++) {
			assertThat(outcome(outcomes.get(i))).isInstanceOf(TransportClosedException.class);
			assertThat(recorders.get(i).failures).hasValue(1);
			assertThat(recorders.get(i).replies).hasValue(0);
			assertThat(recorders.get(i).offers).hasValue(0);
		}
		assertThat(client.pendingCalls()).isZero();
		Recorder late = new Recorder(null);
		CompletableFuture<Object> refused = late.arm();
		client.call(RpcWorkload.echo(99, new byte[4], false, 0, 0), late);
		assertThat(outcome(refused)).isInstanceOf(TransportClosedException.class);
		eventually("the client returned every buffer", () -> this.clientPool.stats().leasedBytes() == 0);
	}

	@Test
	void aCompletionWaitingForACreditPastTheDeadlineFailsWithCreditWaitTimeout() throws Exception {
		CountDownLatch arrived = new CountDownLatch(1);
		RpcRdmaServer server = server(config(), (call, replier) -> arrived.countDown());
		RpcRdmaClientConnection client = client(server,
				config().withTimeouts(Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofSeconds(10)));
		Recorder holder = new Recorder(null);
		Recorder waiter = new Recorder(null);
		CompletableFuture<Object> held = holder.arm();
		CompletableFuture<Object> waited = waiter.arm();
		client.call(RpcWorkload.echo(1, new byte[4], false, 0, 0), holder);
		client.call(RpcWorkload.echo(2, new byte[4], false, 0, 0), waiter);

		assertThat(outcome(waited)).isInstanceOf(CreditWaitTimeoutException.class);
		assertThat(waiter.failures).hasValue(1);
		assertThat(held).isNotDone();
		assertThat(client.pendingCalls()).isEqualTo(1);
		assertThat(arrived.await(deadline().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
	}

	@Test
	void aDuplicateXidFailsOnlyTheSecondCall() throws Exception {
		CountDownLatch arrived = new CountDownLatch(1);
		RpcRdmaServer server = server(config(), (call, replier) -> arrived.countDown());
		RpcRdmaClientConnection client = client(server, config());
		Recorder first = new Recorder(null);
		Recorder second = new Recorder(null);
		CompletableFuture<Object> outstanding = first.arm();
		CompletableFuture<Object> refused = second.arm();
		client.call(RpcWorkload.echo(7, new byte[4], false, 0, 0), first);
		client.call(RpcWorkload.echo(7, new byte[4], false, 0, 0), second);

		assertThat(outcome(refused)).isInstanceOf(IllegalArgumentException.class);
		assertThat(outstanding).isNotDone();
		assertThat(client.pendingCalls()).isEqualTo(1);
		assertThat(client.credits().outstanding()).isEqualTo(1);
	}


}
