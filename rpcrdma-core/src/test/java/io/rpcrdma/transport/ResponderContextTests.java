package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The responder's recycled call contexts (chunk-less calls taken in place, replies through the
 * reused chunk-less Send): a context, and the message buffer the RPC layer reads, come back
 * only when the reply's Send completed and the RPC layer released the call, so nothing that
 * still refers to one can reach a later call; and a small call costs the server little.
 */
abstract class ResponderContextTests extends RpcRdmaTransportKit {

	/** One call as the test's RPC layer saw it. */
	record Seen(InboundCall call, ReplySender sender, byte[] messageOnArrival) {

		static Seen of(InboundCall call, ReplySender sender) {
			ByteBuffer message = call.message();
			byte[] copy = new byte[message.remaining()];
			message.get(message.position(), copy);
			return new Seen(call, sender, copy);
		}

		byte[] messageNow() {
			ByteBuffer message = this.call.message();
			byte[] copy = new byte[message.remaining()];
			message.get(message.position(), copy);
			return copy;
		}

	}

	/** Answers an echo call with its argument as fixed-length opaque (nothing DDP-eligible). */
	static OutboundReply plainEcho(InboundCall call) {
		XdrDecoder decoder = call.decoder();
		RpcCall rpc = RpcMessageCodec.decodeCall(decoder);
		return RpcWorkload.reply(rpc.xid(), decoder.readOpaqueBytes(1024), false);
	}

	private ByteBuffer callAndAwait(RpcRdmaClientConnection client, int xid) throws Exception {
		CallCompletionTests.Recorder recorder = new CallCompletionTests.Recorder(null);
		CompletableFuture<Object> outcome = recorder.arm();
		client.call(RpcWorkload.echo(xid, RpcWorkload.pattern(12, xid), false, 0, 0), recorder);
		Object result = outcome.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		assertThat(result).as("the reply to XID %d", xid).isInstanceOf(ByteBuffer.class);
		ByteBuffer reply = (ByteBuffer) result;
		assertThat(reply.getInt(reply.position())).isEqualTo(xid);
		return reply;
	}

	@Test
	void aCallsMessageIsNeitherChangedNorReusedUntilTheRpcLayerReleasesIt() throws Exception {
		List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
		RpcRdmaServer server = server(config(), (call, sender) -> {
			Seen one = Seen.of(call, sender);
			seen.add(one);
			sender.reply(plainEcho(call), (xid, failure) -> {
			});
			if (call.xid() != 1) {
				sender.release();
			}
		});
		RpcRdmaClientConnection client = client(server, config());

		for (int xid = 1; xid <= 40; xid++) {
			callAndAwait(client, xid);
		}

		Seen held = seen.get(0);
		assertThat(held.call().xid()).isEqualTo(1);
		assertThat(held.messageNow()).as("the unreleased call's message after 39 more calls")
			.isEqualTo(held.messageOnArrival());
		Set<ByteBuffer> later = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Seen one : seen.subList(1, seen.size())) {
			assertThat(one.call().message()).as("the message of XID %d", one.call().xid())
				.isNotSameAs(held.call().message());
			later.add(one.call().message());
		}
		assertThat(later).as("message buffers of 39 released calls, reused").hasSizeLessThan(39);
		held.sender().release();
	}

	@Test
	void aSecondReplyIsRefusedWithoutReachingAnyOtherCall() throws Exception {
		AtomicReference<Throwable> second = new AtomicReference<>();
		AtomicInteger tells = new AtomicInteger();
		RpcRdmaServer server = server(config(), (call, sender) -> {
			OutboundReply reply = plainEcho(call);
			sender.reply(reply, (xid, failure) -> tells.incrementAndGet());
			if (call.xid() == 1) {
				sender.reply(reply, (xid, failure) -> second.set(failure));
			}
			sender.release();
		});
		RpcRdmaClientConnection client = client(server, config());

		for (int xid = 1; xid <= 5; xid++) {
			callAndAwait(client, xid);
		}

		assertThat(second.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("already answered");
		eventually("every first reply was told sent", () -> tells.get() == 5);
		// The connection settles a call's context after telling its reply sent.
		eventually("no call outstanding", () -> onlyConnection(server).outstanding() == 0);
	}

	@Test
	void aReplyAfterTheConnectionFailedIsToldOnceAndTheContextIsLeftBehind() throws Exception {
		CompletableFuture<Seen> arrived = new CompletableFuture<>();
		RpcRdmaServer server = server(config(), (call, sender) -> arrived.complete(Seen.of(call, sender)));
		RpcRdmaClientConnection client = client(server, config());
		CallCompletionTests.Recorder recorder = new CallCompletionTests.Recorder(null);
		CompletableFuture<Object> outcome = recorder.arm();
		client.call(RpcWorkload.echo(7, RpcWorkload.pattern(12, 7), false, 0, 0), recorder);
		Seen call = arrived.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		RpcRdmaServerConnection connection = onlyConnection(server);

		connection.close();
		List<Throwable> told = Collections.synchronizedList(new ArrayList<>());
		call.sender().reply(plainEcho(call.call()), (xid, failure) -> told.add(failure));
		call.sender().release();

		assertThat(told).hasSize(1);
		assertThat(told.get(0)).isInstanceOf(TransportClosedException.class);
		assertThat(connection.outstanding()).isZero();
		assertThat(outcome.get(deadline().toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(Throwable.class);
		assertThat(call.messageNow()).isEqualTo(call.messageOnArrival());
	}

	@Test
	void aDroppedAndReleasedCallGivesItsCreditBackAndItsContextToTheNextCall() throws Exception {
		List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
		RpcRdmaServer server = server(config(), (call, sender) -> {
			seen.add(Seen.of(call, sender));
			if (call.xid() % 2 == 0) {
				sender.drop();
			}
			else {
				sender.reply(plainEcho(call), (xid, failure) -> {
				});
			}
			sender.release();
		});
		RpcRdmaClientConnection client = client(server, config());
		CallCompletionTests.Recorder dropped = new CallCompletionTests.Recorder(null);

		// The requester keeps the credit of a call never answered, so only a few are dropped,
		// each after an answered call (the first answer grants more than the first credit).
		for (int xid = 1; xid <= 9; xid += 2) {
			callAndAwait(client, xid);
			client.call(RpcWorkload.echo(xid + 1, RpcWorkload.pattern(12, xid + 1), false, 0, 0), dropped);
		}

		RpcRdmaServerConnection connection = onlyConnection(server);
		eventually("the last dropped call arrived", () -> seen.size() == 10);
		eventually("every dropped call's credit is back", () -> connection.outstanding() == 0);
		Set<ByteBuffer> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Seen one : seen) {
			buffers.add(one.call().message());
		}
		assertThat(buffers).as("message buffers of 10 calls answered or dropped, then released").hasSizeLessThan(10);
	}

	/**
	 * Every thread of the JVM is counted: the server's receive, delivery and handler threads,
	 * and the client's, whose transport path allocates nothing per call
	 * ({@link CallCompletionTests#aSmallCallAllocatesNothingOnTheCallingOrCompletionThread}).
	 */
	@Test
	void aSmallCallAllocatesLittleOnTheServersReceiveAndHandlerThreads() throws Exception {
		Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
				&& bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled(),
				"this JVM does not count allocated bytes per thread");
		// Pools without leak tracking, which records a stack trace at every lease.
		MemoryPoolConfig pools = MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2);
		RegisteredMemoryPool serverMemory = closeAfterTest(
				new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(), pools));
		RegisteredMemoryPool clientMemory = closeAfterTest(
				new RegisteredMemoryPool(this.clientProvider.allocateProtectionDomain(), pools));
		int program = 0x20000B00;
		ProgramRegistry registry = new ProgramRegistry().register(program, 1, 1, Idempotence.IDEMPOTENT,
				ProcedureHandler.of((call, arguments, results) -> results.writeInt(arguments.readInt() + arguments.readInt())));
		RpcServer server = RpcServer.start(RpcServer.Config.defaults(this.serverProvider, serverMemory, listenAddress())
			.withTransport(config())
			.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.DIRECT, 1, 0)), registry);
		closeAfterTest(() -> server.shutdown(java.time.Duration.ZERO).get(deadline().toMillis(), TimeUnit.MILLISECONDS));
		RpcRdmaClientConnection client = closeAfterTest(RpcRdmaClientConnection
			.connect(this.clientProvider, clientMemory, server.localAddress(), config(), this.versionCache)
			.get(deadline().toMillis(), TimeUnit.MILLISECONDS));
		ByteBuffer add = ByteBuffer.allocate(64);
		XdrEncoder encoder = new XdrEncoder(add);
		RpcMessageCodec.encodeCall(0, program, 1, 1, encoder);
		encoder.writeInt(1).writeInt(2);
		OutboundCall call = OutboundCall.inline(add.flip());
		CallCompletionTests.Parker completion = new CallCompletionTests.Parker();
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		int calls = 4_000;
		long deadline = System.nanoTime() + deadline().toNanos() * 4;
		int xid = 0;
		long perCall = Long.MAX_VALUE;
		// A warm-up, then windows until one is within the bound (at most ten): on a loaded
		// machine the JIT may not have compiled the path after the warm-up, and other threads'
		// noise comes in bursts. Steady state is what is claimed.
		for (int window = -1; window < 10 && perCall >= 480; window++) {
			long before = allocatedByAllThreads(threads);
			for (int i = 0; i < calls; i++) {
				xid++;
				call.message().putInt(0, xid);
				completion.arm(xid);
				client.call(call, completion);
				completion.await(deadline);
			}
			if (window >= 0) {
				perCall = (allocatedByAllThreads(threads) - before) / calls;
			}
		}

		System.out.println(getClass().getSimpleName() + ": the server allocates " + perCall + " bytes per small call");
		// What is left (docs/performance.md, "Responder"), about 376 bytes: the InboundCall (48),
		// the delivery executor's hand-off (64), and the RPC layer's call header, ServerCall,
		// decoder, encoder, exchange with its ticket, outcome and TransportCall (264). It was
		// about 1,400 (1,533 with the service layer, AllocationPerCall). The bound leaves about
		// 100 bytes for other threads' timers and JIT noise, and fails if either larger item
		// comes back: the receive copy with its views and header records (~250), or the reply's
		// futures, lists and lambdas (~300).
		assertThat(perCall).as("bytes all threads allocate per small call, the server's share").isLessThan(480);
	}

	private static long allocatedByAllThreads(com.sun.management.ThreadMXBean threads) {
		long total = 0;
		for (long allocated : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
			total += Math.max(0, allocated);
		}
		return total;
	}

}
