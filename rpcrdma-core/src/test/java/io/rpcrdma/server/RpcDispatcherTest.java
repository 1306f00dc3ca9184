package io.rpcrdma.server;

import static io.rpcrdma.server.Wire.call;
import static io.rpcrdma.server.Wire.hex;
import static io.rpcrdma.server.Wire.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcReply;

/**
 * The dispatcher on the direct executor: each reply kind byte for byte, handler failures,
 * asynchronous handlers, and calls that cannot be answered.
 */
class RpcDispatcherTest {

	private static final int PROGRAM = 100_099;

	private static final int XID = 0x1234_5678;

	private final CapturingConnection connection = new CapturingConnection();

	private final AtomicInteger invocations = new AtomicInteger();

	/** Procedure 1 returns its argument plus one. */
	private final ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 2, 1, Idempotence.IDEMPOTENT,
			ProcedureHandler.of((call, arguments, results) -> {
				this.invocations.incrementAndGet();
				results.writeInt(arguments.readInt() + 1);
			}));

	private final RpcDispatcher dispatcher = new RpcDispatcher(this.registry, ServerExecutor.direct());

	private DispatchOutcome dispatch(ByteBuffer message) throws Exception {
		return this.dispatcher.dispatch(message, "client-a", this.connection, this.connection).get(10, TimeUnit.SECONDS);
	}

	private void assertReply(byte[] expected) throws InterruptedException {
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(expected));
	}

	@Test
	void resultsFollowTheSuccessHeaderInTheSuppliedBuffer() throws Exception {
		assertThat(dispatch(call(RpcCall.of(XID, PROGRAM, 2, 1), 41))).isEqualTo(DispatchOutcome.REPLIED);

		assertReply(reply(RpcReply.success(XID), 42));
		assertThat(this.connection.acquired).hasValue(1);
		assertThat(this.connection.released).hasValue(0);
		assertThat(this.dispatcher.inFlight().inFlight()).isZero();
	}

	@Test
	void opaqueArgumentsOfAnRdmaMsgpCallAreReadPastTheirPadding() throws Exception {
		this.registry.register(PROGRAM, 2, 2, ProcedureHandler.of((call, arguments, results) -> {
			byte[] data = arguments.readOpaqueBytes(64);
			results.writeInt(data.length);
			results.writeInt(ByteBuffer.wrap(data).getInt(0));
		}));
		// The RPC message starts 36 bytes into the Send; the length word ends at 36 + 44 = 80,
		// so 16 pad bytes put the data at 96, a multiple of rdma_align 32 (RFC 5666 §3.9).
		ByteBuffer message = call(RpcCall.of(XID, PROGRAM, 2, 2), 8, 0, 0, 0, 0, 0x01020304, 0x05060708);

		DispatchOutcome outcome = this.dispatcher
			.dispatch(message, new io.rpcrdma.xdr.OpaquePadding(32, 8, 36), "client-a", this.connection, this.connection)
			.get(10, TimeUnit.SECONDS);

		assertThat(outcome).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.success(XID), 8, 0x01020304));
	}

	@Test
	void theNullProcedureIsAnsweredWithEmptyResultsForEveryRegisteredVersion() throws Exception {
		this.registry.registerVersion(PROGRAM, 3);

		assertThat(dispatch(call(RpcCall.of(XID, PROGRAM, 2, 0)))).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.success(XID)));
		assertThat(dispatch(call(RpcCall.of(XID + 1, PROGRAM, 3, 0)))).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.success(XID + 1)));
		assertThat(this.invocations).hasValue(0);
	}

	@Test
	void anUnknownProgramIsAnsweredProgUnavail() throws Exception {
		assertThat(dispatch(call(RpcCall.of(XID, PROGRAM + 1, 2, 1), 1))).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.progUnavail(XID)));
	}

	@Test
	void anUnknownVersionIsAnsweredProgMismatchWithTheRegisteredVersions() throws Exception {
		this.registry.registerVersion(PROGRAM, 4);

		dispatch(call(RpcCall.of(XID, PROGRAM, 3, 1), 1));
		assertReply(reply(RpcReply.progMismatch(XID, 2, 4)));
	}

	@Test
	void anUnknownProcedureIsAnsweredProcUnavail() throws Exception {
		dispatch(call(RpcCall.of(XID, PROGRAM, 2, 9), 1));
		assertReply(reply(RpcReply.procUnavail(XID)));
		assertThat(this.invocations).hasValue(0);
	}

	@Test
	void garbageArgumentsExceptionIsAnsweredGarbageArgsDiscardingPartialResults() throws Exception {
		this.registry.register(PROGRAM, 2, 2, (call, arguments, results) -> {
			results.writeInt(7).writeInt(8);
			throw new GarbageArgumentsException("count is negative");
		});

		dispatch(call(RpcCall.of(XID, PROGRAM, 2, 2), -1));
		assertReply(reply(RpcReply.garbageArgs(XID)));
		assertThat(this.dispatcher.stats().garbageArgs()).isEqualTo(1);
	}

	@Test
	void argumentsThatRunOutAreAnsweredGarbageArgs() throws Exception {
		dispatch(call(RpcCall.of(XID, PROGRAM, 2, 1)));
		assertReply(reply(RpcReply.garbageArgs(XID)));
	}

	@Test
	void aFailingHandlerIsAnsweredSystemErr() throws Exception {
		this.registry.register(PROGRAM, 2, 2, (call, arguments, results) -> {
			results.writeInt(7);
			throw new IllegalStateException("database is down");
		});

		assertThat(dispatch(call(RpcCall.of(XID, PROGRAM, 2, 2)))).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.systemErr(XID)));
		assertThat(this.dispatcher.stats().systemErrors()).isEqualTo(1);
	}

	@Test
	void anErrorThrownByAHandlerIsAnsweredSystemErrToo() throws Exception {
		this.registry.register(PROGRAM, 2, 2, (call, arguments, results) -> {
			throw new AssertionError("bug");
		});

		dispatch(call(RpcCall.of(XID, PROGRAM, 2, 2)));
		assertReply(reply(RpcReply.systemErr(XID)));
	}

	@Test
	void resultsLargerThanTheReplyBufferAreAnsweredSystemErr() throws Exception {
		CapturingConnection small = new CapturingConnection(64);
		this.registry.register(PROGRAM, 2, 2, ProcedureHandler.of((call, arguments, results) -> {
			for (int i = 0; i < 100; i++) {
				results.writeInt(i);
			}
		}));

		this.dispatcher.dispatch(call(RpcCall.of(XID, PROGRAM, 2, 2)), "client-a", small, small).get(10, TimeUnit.SECONDS);
		assertThat(hex(small.nextReply())).isEqualTo(hex(reply(RpcReply.systemErr(XID))));
	}

	@Test
	void aHandlerReturningNullHasFinished() throws Exception {
		this.registry.register(PROGRAM, 2, 2, (call, arguments, results) -> {
			results.writeInt(5);
			return null;
		});

		dispatch(call(RpcCall.of(XID, PROGRAM, 2, 2)));
		assertReply(reply(RpcReply.success(XID), 5));
	}

	@Test
	void anAsynchronousHandlerIsAnsweredWhenItsStageCompletes() throws Exception {
		CompletableFuture<Void> done = new CompletableFuture<>();
		this.registry.register(PROGRAM, 2, 2, (call, arguments, results) -> {
			int argument = arguments.readInt();
			return done.thenRun(() -> results.writeInt(argument * 2));
		});

		CompletableFuture<DispatchOutcome> outcome = this.dispatcher.dispatch(call(RpcCall.of(XID, PROGRAM, 2, 2), 21),
				"client-a", this.connection, this.connection);
		assertThat(outcome).isNotDone();
		assertThat(this.connection.sent()).isZero();
		assertThat(this.dispatcher.inFlight().inFlight()).isOne();

		CompletableFuture.runAsync(() -> done.complete(null));
		assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.success(XID), 42));
		Wire.assertQuiescent(this.dispatcher);
	}

	@Test
	void anAsynchronousFailureIsMappedLikeAThrownOne() throws Exception {
		CompletableFuture<Void> garbage = new CompletableFuture<>();
		CompletableFuture<Void> failure = new CompletableFuture<>();
		this.registry.register(PROGRAM, 2, 2, (call, arguments, results) -> garbage.thenRun(() -> { }));
		this.registry.register(PROGRAM, 2, 3, (call, arguments, results) -> failure.thenRun(() -> { }));

		CompletableFuture<DispatchOutcome> first = this.dispatcher.dispatch(call(RpcCall.of(XID, PROGRAM, 2, 2)),
				"client-a", this.connection, this.connection);
		CompletableFuture<DispatchOutcome> second = this.dispatcher.dispatch(call(RpcCall.of(XID + 1, PROGRAM, 2, 3)),
				"client-a", this.connection, this.connection);
		garbage.completeExceptionally(new GarbageArgumentsException("bad name"));
		failure.completeExceptionally(new IllegalStateException("disk full"));

		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.garbageArgs(XID)));
		assertReply(reply(RpcReply.systemErr(XID + 1)));
	}

	@Test
	void aCallOfAnotherRpcVersionIsAnsweredRpcMismatch() throws Exception {
		ByteBuffer message = call(RpcCall.of(XID, PROGRAM, 2, 1), 1);
		message.putInt(8, 3);

		assertThat(dispatch(message)).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.rpcMismatch(XID, 2, 2)));
		assertThat(this.invocations).hasValue(0);
	}

	@Test
	void aCredentialTooLargeIsAnsweredAuthErrorBadCred() throws Exception {
		ByteBuffer message = ByteBuffer.allocate(64);
		message.putInt(XID).putInt(0).putInt(2).putInt(PROGRAM).putInt(2).putInt(1);
		message.putInt(1).putInt(404).flip();

		assertThat(dispatch(message)).isEqualTo(DispatchOutcome.REPLIED);
		assertReply(reply(RpcReply.authError(XID, AuthStat.AUTH_BADCRED)));
	}

	@Test
	void aReplyOrATruncatedMessageIsDroppedWithoutAnswer() throws Exception {
		ByteBuffer aReply = ByteBuffer.wrap(reply(RpcReply.success(XID)));
		ByteBuffer truncated = call(RpcCall.of(XID, PROGRAM, 2, 1), 1).limit(14);
		ByteBuffer tooShortForAnXid = ByteBuffer.allocate(2);

		assertThat(dispatch(aReply)).isEqualTo(DispatchOutcome.DROPPED_MALFORMED);
		assertThat(dispatch(truncated)).isEqualTo(DispatchOutcome.DROPPED_MALFORMED);
		assertThat(dispatch(tooShortForAnXid)).isEqualTo(DispatchOutcome.DROPPED_MALFORMED);
		assertThat(this.connection.sent()).isZero();
		assertThat(this.connection.acquired).hasValue(0);
		assertThat(this.dispatcher.stats().dropped()).isEqualTo(3);
	}

	@Test
	void withoutAReplyBufferTheCallIsDroppedUnexecuted() throws Exception {
		ReplyBufferSupplier none = (xid) -> {
			throw new IllegalStateException("send buffers exhausted");
		};

		DispatchOutcome outcome = this.dispatcher.dispatch(call(RpcCall.of(XID, PROGRAM, 2, 1), 1), "client-a", none,
				this.connection).get(10, TimeUnit.SECONDS);

		assertThat(outcome).isEqualTo(DispatchOutcome.FAILED);
		assertThat(this.invocations).hasValue(0);
		assertThat(this.connection.sent()).isZero();
		assertThat(this.dispatcher.inFlight().inFlight()).isZero();
	}

	@Test
	void aFailingSinkIsReportedAndTheReplyIsNotSentTwice() throws Exception {
		AtomicInteger sends = new AtomicInteger();
		ReplySink failing = (xid, reply) -> {
			sends.incrementAndGet();
			throw new IllegalStateException("connection closed");
		};

		DispatchOutcome outcome = this.dispatcher.dispatch(call(RpcCall.of(XID, PROGRAM, 2, 1), 1), "client-a",
				this.connection, failing).get(10, TimeUnit.SECONDS);

		assertThat(outcome).isEqualTo(DispatchOutcome.FAILED);
		assertThat(sends).hasValue(1);
		assertThat(this.dispatcher.inFlight().inFlight()).isZero();
	}

}
