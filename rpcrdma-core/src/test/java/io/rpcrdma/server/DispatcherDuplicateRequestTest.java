package io.rpcrdma.server;

import static io.rpcrdma.server.Wire.call;
import static io.rpcrdma.server.Wire.hex;
import static io.rpcrdma.server.Wire.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcReply;

/**
 * The dispatcher with a duplicate request cache: non-idempotent calls execute at most once per
 * (client, xid, checksum), and retransmissions get the original reply.
 */
class DispatcherDuplicateRequestTest {

	private static final int PROGRAM = 100_099;

	private final CapturingConnection connection = new CapturingConnection();

	private final AtomicInteger appends = new AtomicInteger();

	private final AtomicInteger reads = new AtomicInteger();

	/** Procedure 1 appends (non-idempotent) and returns the new count; 2 reads (idempotent). */
	private final ProgramRegistry registry = new ProgramRegistry()
		.register(PROGRAM, 1, 1, Idempotence.NON_IDEMPOTENT,
				ProcedureHandler.of((call, arguments, results) -> results.writeInt(this.appends.incrementAndGet())))
		.register(PROGRAM, 1, 2, Idempotence.IDEMPOTENT,
				ProcedureHandler.of((call, arguments, results) -> results.writeInt(this.reads.incrementAndGet())));

	private final DuplicateRequestCache cache = new DuplicateRequestCache(16, 64, Duration.ofMinutes(2));

	private ServerExecutor executor = ServerExecutor.direct();

	@AfterEach
	void close() {
		this.executor.close();
	}

	private RpcDispatcher dispatcher() {
		return new RpcDispatcher(this.registry, this.executor, this.cache, new InFlightTracker());
	}

	private DispatchOutcome dispatch(RpcDispatcher dispatcher, Object client, int xid, int procedure, int argument)
			throws Exception {
		return dispatcher.dispatch(call(RpcCall.of(xid, PROGRAM, 1, procedure), argument), client, this.connection,
				this.connection).get(10, TimeUnit.SECONDS);
	}

	@Test
	void aRetransmissionIsAnsweredFromTheCacheWithoutExecutingAgain() throws Exception {
		RpcDispatcher dispatcher = dispatcher();

		assertThat(dispatch(dispatcher, "client", 10, 1, 0)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(dispatch(dispatcher, "client", 10, 1, 0)).isEqualTo(DispatchOutcome.REPLIED_FROM_CACHE);

		assertThat(this.appends).hasValue(1);
		byte[] original = this.connection.nextReply();
		assertThat(hex(original)).isEqualTo(hex(reply(RpcReply.success(10), 1)));
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(original));
		assertThat(this.cache.stats().hits()).isEqualTo(1);
	}

	@Test
	void theSameXidWithOtherArgumentsExecutes() throws Exception {
		RpcDispatcher dispatcher = dispatcher();

		dispatch(dispatcher, "client", 10, 1, 0);
		assertThat(dispatch(dispatcher, "client", 10, 1, 1)).isEqualTo(DispatchOutcome.REPLIED);

		assertThat(this.appends).hasValue(2);
		assertThat(this.cache.stats().checksumMismatches()).isEqualTo(1);
	}

	@Test
	void theSameXidFromAnotherClientExecutes() throws Exception {
		RpcDispatcher dispatcher = dispatcher();

		dispatch(dispatcher, "client-a", 10, 1, 0);
		dispatch(dispatcher, "client-b", 10, 1, 0);

		assertThat(this.appends).hasValue(2);
	}

	@Test
	void idempotentProceduresBypassTheCache() throws Exception {
		RpcDispatcher dispatcher = dispatcher();

		dispatch(dispatcher, "client", 10, 2, 0);
		dispatch(dispatcher, "client", 10, 2, 0);

		assertThat(this.reads).hasValue(2);
		assertThat(this.cache.stats().misses()).isZero();
	}

	@Test
	void anErrorReplyIsCachedLikeAnyOther() throws Exception {
		AtomicInteger failures = new AtomicInteger();
		this.registry.register(PROGRAM, 1, 3, (call, arguments, results) -> {
			failures.incrementAndGet();
			throw new IllegalStateException("half done");
		});
		RpcDispatcher dispatcher = dispatcher();

		dispatch(dispatcher, "client", 10, 3, 0);
		assertThat(dispatch(dispatcher, "client", 10, 3, 0)).isEqualTo(DispatchOutcome.REPLIED_FROM_CACHE);

		assertThat(failures).hasValue(1);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.systemErr(10))));
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.systemErr(10))));
	}

	@Test
	void aRetransmissionWhileTheOriginalRunsGetsTheOriginalsReply() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<Void> finish = new CompletableFuture<>();
		AtomicInteger runs = new AtomicInteger();
		this.registry.register(PROGRAM, 1, 3, (call, arguments, results) -> {
			runs.incrementAndGet();
			started.countDown();
			return finish.thenRun(() -> results.writeInt(77));
		});
		RpcDispatcher dispatcher = dispatcher();

		CompletableFuture<DispatchOutcome> original = dispatcher.dispatch(call(RpcCall.of(10, PROGRAM, 1, 3), 0),
				"client", this.connection, this.connection);
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		CapturingConnection reconnected = new CapturingConnection();
		CompletableFuture<DispatchOutcome> retransmission = dispatcher
			.dispatch(call(RpcCall.of(10, PROGRAM, 1, 3), 0), "client", reconnected, reconnected);
		assertThat(retransmission).isNotDone();

		finish.complete(null);

		assertThat(original.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(retransmission.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED_FROM_CACHE);
		assertThat(runs).hasValue(1);
		byte[] expected = reply(RpcReply.success(10), 77);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(expected));
		assertThat(hex(reconnected.nextReply())).isEqualTo(hex(expected));
		Wire.assertQuiescent(dispatcher);
	}

	@Test
	void aCallRefusedForOverloadIsNotCachedSoItsRetransmissionExecutes() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.registry.register(PROGRAM, 1, 3, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
			started.countDown();
			release.await(10, TimeUnit.SECONDS);
		}));
		this.executor = ServerExecutor.boundedPool(1, 0);
		RpcDispatcher dispatcher = dispatcher();
		CompletableFuture<DispatchOutcome> blocker = dispatcher.dispatch(call(RpcCall.of(1, PROGRAM, 1, 3)), "client",
				this.connection, this.connection);
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

		assertThat(dispatch(dispatcher, "client", 10, 1, 0)).isEqualTo(DispatchOutcome.REJECTED_OVERLOADED);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.systemErr(10))));
		release.countDown();
		assertThat(blocker.get(10, TimeUnit.SECONDS)).isEqualTo(DispatchOutcome.REPLIED);
		this.connection.nextReply();

		// The retransmission reaches a dispatcher sharing the cache whose executor has room
		// (the pool's worker may not be back waiting for work yet).
		RpcDispatcher roomy = new RpcDispatcher(this.registry, ServerExecutor.direct(), this.cache,
				new InFlightTracker());
		assertThat(dispatch(roomy, "client", 10, 1, 0)).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(this.appends).hasValue(1);
		assertThat(hex(this.connection.nextReply())).isEqualTo(hex(reply(RpcReply.success(10), 1)));
	}

	@Test
	void evictedRepliesExecuteAgainWithinTheBounds() throws Exception {
		DuplicateRequestCache small = new DuplicateRequestCache(2, 10, Duration.ofMinutes(2));
		RpcDispatcher dispatcher = new RpcDispatcher(this.registry, this.executor, small, new InFlightTracker());

		for (int xid = 1; xid <= 3; xid++) {
			dispatch(dispatcher, "client", xid, 1, 0);
		}
		assertThat(dispatch(dispatcher, "client", 3, 1, 0)).isEqualTo(DispatchOutcome.REPLIED_FROM_CACHE);
		assertThat(dispatch(dispatcher, "client", 1, 1, 0)).isEqualTo(DispatchOutcome.REPLIED);

		assertThat(this.appends).hasValue(4);
		assertThat(small.stats().evictions()).isEqualTo(2);
		assertThat(small.stats().entries()).isEqualTo(2);
	}

}
