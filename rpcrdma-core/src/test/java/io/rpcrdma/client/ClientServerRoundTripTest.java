package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.server.DuplicateRequestCache;
import io.rpcrdma.server.GarbageArgumentsException;
import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.InFlightTracker;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcDispatcher;
import io.rpcrdma.server.ServerExecutor;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The client and server blocks joined the way a transport joins them, with the connection
 * replaced by a direct hand-over of the encoded messages: calls and every kind of answer
 * travel end to end.
 */
class ClientServerRoundTripTest {

	private static final int PROGRAM = 0x2000_0001;

	private static final String ENDPOINT = "loopback://server";

	private final AtomicInteger counter = new AtomicInteger();

	private final ServerExecutor executor = ServerExecutor.boundedPool(2, 16);

	private final ProgramRegistry registry = new ProgramRegistry()
		.register(PROGRAM, 1, 1, Idempotence.IDEMPOTENT, ProcedureHandler.of((call, arguments, results) -> {
			int a = arguments.readInt();
			int b = arguments.readInt();
			results.writeInt(a + b);
		}))
		.register(PROGRAM, 1, 2, ProcedureHandler.of((call, arguments, results) -> {
			int step = arguments.readInt();
			if (step < 0) {
				throw new GarbageArgumentsException("step must not be negative");
			}
			results.writeInt(this.counter.addAndGet(step));
		}));

	private final RpcDispatcher server = new RpcDispatcher(this.registry, this.executor,
			new DuplicateRequestCache(64, 1024, Duration.ofMinutes(1)), new InFlightTracker());

	private final PendingCalls pending = new PendingCalls(ENDPOINT, 16, CallTimer.shared());

	@AfterEach
	void close() {
		this.executor.close();
	}

	/** Encodes and "sends" a call; the server's reply comes back as the transport delivers it. */
	private CompletableFuture<Integer> call(int version, int procedure, int... arguments) {
		return call(this.pending, this.server, Duration.ofSeconds(10), version, procedure, arguments);
	}

	private static CompletableFuture<Integer> call(PendingCalls table, RpcDispatcher dispatcher, Duration timeout,
			int version, int procedure, int... arguments) {
		FutureReply future = new FutureReply();
		ClientCall call = table.register(PROGRAM, version, procedure, null, timeout, future);
		ByteBuffer message = ByteBuffer.allocate(256);
		XdrEncoder encoder = new XdrEncoder(message);
		RpcMessageCodec.encodeCall(RpcCall.of(call.xid(), PROGRAM, version, procedure), encoder);
		for (int argument : arguments) {
			encoder.writeInt(argument);
		}
		dispatcher.dispatch(message.flip(), "client", (xid) -> ByteBuffer.allocate(256),
				(xid, reply) -> ClientCalls.deliver(call, reply));
		return future.thenApply((reply) -> {
			try {
				return reply.results().readInt();
			}
			finally {
				reply.release();
			}
		});
	}

	private static Throwable failure(CompletableFuture<?> future) throws Exception {
		try {
			future.get(10, TimeUnit.SECONDS);
			throw new AssertionError("succeeded");
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
	}

	@Test
	void aCallReturnsItsResults() throws Exception {
		assertThat(call(1, 1, 40, 2).get(10, TimeUnit.SECONDS)).isEqualTo(42);
		assertThat(call(1, 2, 5).get(10, TimeUnit.SECONDS)).isEqualTo(5);
		assertThat(this.pending.size()).isZero();
	}

	@Test
	void eachServerRefusalArrivesAsItsOwnException() throws Exception {
		assertThat(failure(call(1, 9))).isInstanceOf(ProcedureUnavailableException.class);
		assertThat(failure(call(2, 1, 1, 1))).isInstanceOf(ProgramVersionMismatchException.class)
			.hasMessageContaining("which supports versions 1 to 1");
		assertThat(failure(call(1, 2, -1))).isInstanceOf(RemoteGarbageArgumentsException.class)
			.hasMessageContaining("at " + ENDPOINT);
		assertThat(failure(call(1, 1, 7))).as("missing argument").isInstanceOf(RemoteGarbageArgumentsException.class);
		assertThat(this.pending.size()).isZero();
	}

	@Test
	void aConnectionLostDuringShutdownIsRetriedOnTheNextConnection() throws Exception {
		this.server.shutdown(Duration.ZERO).get(10, TimeUnit.SECONDS);
		RetryPolicy retry = new RetryPolicy(3,
				new Backoff(Duration.ofMillis(1), Duration.ofMillis(10), 2.0, 0.5, new Random(3)));
		RpcDispatcher restarted = new RpcDispatcher(this.registry, ServerExecutor.direct());
		AtomicInteger attempts = new AtomicInteger();

		CompletableFuture<Integer> result = retry.execute((remaining) -> {
			if (attempts.incrementAndGet() == 1) {
				// The shutting-down server drops the call; the transport then loses the connection.
				CompletableFuture<Integer> first = call(1, 1, 1, 2);
				this.pending.failAll(new IOException("server closed the connection"));
				return first;
			}
			PendingCalls second = new PendingCalls(ENDPOINT, 16, CallTimer.shared());
			return call(second, restarted, remaining, 1, 1, 1, 2);
		}, true, Duration.ofSeconds(10), CallTimer.shared(), System::nanoTime);

		assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(3);
		assertThat(attempts).hasValue(2);
	}

	@Test
	void aNonIdempotentCallLostWithItsConnectionIsNotRetried() throws Exception {
		RetryPolicy retry = new RetryPolicy(3, Backoff.exponential(Duration.ofMillis(1), Duration.ofMillis(10)));
		AtomicInteger attempts = new AtomicInteger();

		CompletableFuture<Integer> result = retry.execute((remaining) -> {
			attempts.incrementAndGet();
			FutureReply call = new FutureReply();
			this.pending.register(PROGRAM, 1, 2, null, remaining, call);
			this.pending.failAll(new IOException("link down"));
			return call.thenApply((reply) -> 0);
		}, false, Duration.ofSeconds(10), CallTimer.shared(), System::nanoTime);

		assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ConnectionLostException.class);
		assertThat(attempts).hasValue(1);
	}

}
