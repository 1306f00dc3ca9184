package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * A pool replaces a connection whose server stopped answering (issue #37, liveness as Linux's
 * RPC client has it after a major timeout): calls that time out in a row with no reply in
 * between close the connection and the pool opens another; one reply, on time or late, resets
 * the count; 0 keeps the connection however many time out.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RpcClientPoolUnansweredTest {

	private static final int PROGRAM = 0x2000_a11e;

	/** Never answered while the test holds it. */
	private static final int STALLS = 1;

	/** Answered at once. */
	private static final int ANSWERS = 2;

	private static final Duration SHORT = Duration.ofMillis(150);

	private static final Duration LONG = Duration.ofSeconds(20);

	private final List<CompletableFuture<Void>> held = new CopyOnWriteArrayList<>();

	private RdmaProvider provider;

	private RegisteredMemoryPool serverMemory;

	private RegisteredMemoryPool clientMemory;

	private RpcServer server;

	private RpcClientPool pool;

	private RpcClientPool pool(String providerName, int unansweredTimeouts) {
		this.provider = RdmaProviders.open(providerName);
		this.serverMemory = memory(this.provider);
		this.clientMemory = memory(this.provider);
		InetSocketAddress bind = "loopback".equals(providerName) ? InetSocketAddress.createUnresolved("unanswered", 0)
				: new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
		ProcedureHandler stall = (call, arguments, results) -> {
			CompletableFuture<Void> never = new CompletableFuture<>();
			this.held.add(never);
			return never;
		};
		this.server = RpcServer.start(RpcServer.Config.defaults(this.provider, this.serverMemory, bind),
				new ProgramRegistry().register(PROGRAM, 1, STALLS, stall)
					.register(PROGRAM, 1, ANSWERS, ProcedureHandler.of((call, arguments, results) -> {
					})));
		this.pool = RpcClientPool.connect(this.provider, this.clientMemory, this.server.localAddress(),
				TransportConfig.defaults(), 16, RpcClientPool.Config.of(1, 1).withUnansweredTimeouts(unansweredTimeouts));
		return this.pool;
	}

	@AfterEach
	void close() {
		this.held.forEach((call) -> call.complete(null));
		if (this.pool != null) {
			this.pool.close();
		}
		if (this.server != null) {
			this.server.close();
		}
		if (this.provider != null) {
			this.serverMemory.close();
			this.clientMemory.close();
			this.provider.close();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void threeCallsInARowUnansweredReplaceTheConnectionAndOneAnswerResetsTheCount(String providerName) {
		RpcClientPool pool = pool(providerName, 3);
		answered(pool);
		RpcClient first = pool.connections().get(0);

		timesOut(pool);
		timesOut(pool);
		answered(pool);
		timesOut(pool);
		timesOut(pool);
		assertThat(first.isOpen()).as("two in a row since the last answer").isTrue();
		assertThat(pool.connections()).containsExactly(first);

		// The third in a row: the server is taken for stalled and its connection replaced.
		CompletableFuture<ReceivedReply> third = pool.call(PROGRAM, 1, STALLS, CallBody.NONE, false, SHORT);
		assertThatThrownBy(third::join).hasCauseInstanceOf(CallTimeoutException.class);
		first.closeFuture().orTimeout(10, TimeUnit.SECONDS).join();
		assertThat(first.isOpen()).isFalse();

		// A call now goes on a new connection, and the server answers it there.
		answered(pool);
		assertThat(pool.connections()).hasSize(1).doesNotContain(first);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aCallPendingOnTheReplacedConnectionFailsWithTheReason(String providerName) {
		RpcClientPool pool = pool(providerName, 2);
		answered(pool);
		RpcClient first = pool.connections().get(0);
		CompletableFuture<ReceivedReply> waiting = pool.call(PROGRAM, 1, STALLS, CallBody.NONE, false, LONG);

		timesOut(pool);
		timesOut(pool);

		assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).cause()
			.isInstanceOf(ConnectionLostException.class)
			.hasMessageContaining("may or may not have executed")
			.cause()
			.isInstanceOf(ServerNotAnsweringException.class)
			.hasMessageContaining("answered none of the last 2 calls")
			.hasMessageContaining("unanswered-timeouts");
		assertThat(first.isOpen()).isFalse();
		answered(pool);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void zeroKeepsTheConnectionHoweverManyCallsTimeOut(String providerName) {
		RpcClientPool pool = pool(providerName, 0);
		answered(pool);
		RpcClient first = pool.connections().get(0);
		for (int i = 0; i < 5; i++) {
			timesOut(pool);
		}
		assertThat(first.isOpen()).isTrue();
		answered(pool);
		assertThat(pool.connections()).containsExactly(first);
	}

	private static void timesOut(RpcClientPool pool) {
		CompletableFuture<ReceivedReply> reply = pool.call(PROGRAM, 1, STALLS, CallBody.NONE, false, SHORT);
		assertThatThrownBy(reply::join).isInstanceOf(CompletionException.class)
			.hasCauseInstanceOf(CallTimeoutException.class);
	}

	private static void answered(RpcClientPool pool) {
		pool.call(PROGRAM, 1, ANSWERS, CallBody.NONE, false, LONG).join().release();
	}

	private static RegisteredMemoryPool memory(RdmaProvider provider) {
		return new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
	}

}
