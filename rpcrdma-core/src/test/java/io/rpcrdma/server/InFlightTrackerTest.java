package io.rpcrdma.server;

import static io.rpcrdma.server.Wire.call;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;

/**
 * Graceful shutdown: no call is admitted after it begins, running calls may finish within the
 * grace period, and those that do not are reported.
 */
class InFlightTrackerTest {

	private static final int PROGRAM = 100_099;

	private final CapturingConnection connection = new CapturingConnection();

	private final ServerExecutor pool = ServerExecutor.boundedPool(4, 4);

	private final CountDownLatch started = new CountDownLatch(2);

	private final CountDownLatch release = new CountDownLatch(1);

	private final RpcDispatcher dispatcher = new RpcDispatcher(new ProgramRegistry().register(PROGRAM, 1, 1,
			Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
				this.started.countDown();
				this.release.await(20, TimeUnit.SECONDS);
			})), this.pool);

	@AfterEach
	void close() {
		this.release.countDown();
		this.pool.close();
	}

	private CompletableFuture<DispatchOutcome> dispatch(int xid) {
		return this.dispatcher.dispatch(call(RpcCall.of(xid, PROGRAM, 1, 1)), "client-" + xid, this.connection,
				this.connection);
	}

	@Test
	void shutdownWithNothingRunningIsQuiescentAtOnce() throws Exception {
		InFlightTracker tracker = new InFlightTracker();

		CompletableFuture<InFlightTracker.ShutdownReport> report = tracker.shutdown(Duration.ofHours(1));

		assertThat(report).isCompleted();
		assertThat(report.get().quiescent()).isTrue();
		assertThat(report.get().stragglers()).isEmpty();
		assertThat(tracker.tryEnter("client", RpcCall.of(1, PROGRAM, 1, 1))).isNull();
	}

	@Test
	void callsThatFinishWithinTheGracePeriodCompleteTheShutdown() throws Exception {
		CompletableFuture<DispatchOutcome> first = dispatch(1);
		CompletableFuture<DispatchOutcome> second = dispatch(2);
		assertThat(this.started.await(10, TimeUnit.SECONDS)).isTrue();

		CompletableFuture<InFlightTracker.ShutdownReport> report = this.dispatcher.shutdown(Duration.ofMinutes(5));
		assertThat(this.dispatcher.inFlight().isAccepting()).isFalse();
		assertThat(this.dispatcher.inFlight().inFlight()).isEqualTo(2);
		assertThat(report).isNotDone();
		assertThat(dispatch(3)).as("no call is admitted after shutdown began")
			.isCompletedWithValue(DispatchOutcome.DROPPED_SHUTTING_DOWN);

		this.release.countDown();

		InFlightTracker.ShutdownReport done = report.get(10, TimeUnit.SECONDS);
		assertThat(done.quiescent()).isTrue();
		assertThat(done.stragglers()).isEmpty();
		assertThat(first).isCompletedWithValue(DispatchOutcome.REPLIED);
		assertThat(second).isCompletedWithValue(DispatchOutcome.REPLIED);
		assertThat(this.connection.sent()).isEqualTo(2);
	}

	@Test
	void callsStillRunningAfterTheGracePeriodAreReported() throws Exception {
		dispatch(0x51);
		dispatch(0x52);
		assertThat(this.started.await(10, TimeUnit.SECONDS)).isTrue();

		InFlightTracker.ShutdownReport report = this.dispatcher.shutdown(Duration.ofMillis(20)).get(10, TimeUnit.SECONDS);

		assertThat(report.quiescent()).isFalse();
		assertThat(report.stragglers()).extracting((straggler) -> straggler.call().xid())
			.containsExactlyInAnyOrder(0x51, 0x52);
		assertThat(report.stragglers()).extracting(InFlightTracker.Straggler::clientKey)
			.containsExactlyInAnyOrder("client-81", "client-82");
		assertThat(report.toString()).contains("2 calls still running after the grace period")
			.contains("program 0x18703 version 1 procedure 1 xid 0x00000051 from client-81");
	}

	@Test
	void aTicketExitsOnlyOnce() {
		InFlightTracker tracker = new InFlightTracker();
		InFlightTracker.Ticket first = tracker.tryEnter("a", RpcCall.of(1, PROGRAM, 1, 1));
		tracker.tryEnter("b", RpcCall.of(2, PROGRAM, 1, 1));

		first.exit();
		first.exit();

		assertThat(tracker.inFlight()).isEqualTo(1);
	}

}
