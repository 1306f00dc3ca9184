package io.rpcrdma.discovery.rpcbind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.client.Backoff;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.client.balance.BalancerKind;
import io.rpcrdma.client.balance.Ejection;
import io.rpcrdma.client.balance.InstancePools;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * A client that knows only a host's rpcbind reaches the server registered there, over the
 * siw provider on 127.0.0.1, against the real rpcbind (RFC 5666 §10); it follows the server
 * to a new port after an ejection, and says what the host has when the program is not there.
 */
@Tag("conformance")
@ExtendWith(RpcbindDaemonExtension.class)
class RpcbindInstanceSourceDaemonTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	/** Answers its argument plus one. */
	private static final int ECHO = 1;

	private final int program = 0x4000_0000 + ThreadLocalRandom.current().nextInt(0x1000_0000);

	private RdmaProvider provider;

	private RegisteredMemoryPool memory;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@BeforeEach
	void open() {
		this.provider = RdmaProviders.open("siw");
		this.memory = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
	}

	@AfterEach
	void close() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.provider.close();
	}

	private RpcServer server() throws Exception {
		RpcServer server = RpcServer.start(
				RpcServer.Config.defaults(this.provider, this.memory, new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0)),
				new ProgramRegistry().register(this.program, 1, ECHO, Idempotence.IDEMPOTENT,
						ProcedureHandler.of((call, arguments, results) -> results.writeInt(arguments.readInt() + 1))));
		this.closeables.add(() -> server.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
		return server;
	}

	private RpcbindRegistration register(RpcbindDaemon rpcbind, RpcServer server) {
		RpcbindRegistration registration = RpcbindRegistration.register(rpcbind.address(), TIMEOUT, server.localAddress(),
				List.of(new ProgramVersion(this.program, 1)), RpcbindRegistration.DEFAULT_OWNER);
		this.closeables.add(registration);
		return registration;
	}

	private BalancedCaller caller(RpcbindInstanceSource source) {
		InstancePools pools = (instance) -> new RpcClientPool(instance.id(),
				() -> RpcClient.connect(this.provider, this.memory, instance.address(), TransportConfig.defaults(), 64),
				new RpcClientPool.Config(1, 1, 64, new Backoff(Duration.ofMillis(1), Duration.ofMillis(20), 2.0, 0.0,
						new Random(1)), RetryPolicy.none()),
				CallTimer.shared());
		BalancedCaller.Config config = new BalancedCaller.Config(BalancerKind.ROUND_ROBIN,
				new Ejection(1, new Backoff(Duration.ofMillis(10), Duration.ofMillis(50), 2.0, 0.0, new Random(1)),
						Duration.ofSeconds(2)),
				new RetryPolicy(3, new Backoff(Duration.ofMillis(5), Duration.ofMillis(50), 2.0, 0.0, new Random(1))));
		BalancedCaller caller = new BalancedCaller("rpcbind client", source, pools, UnaryOperator.identity(), config,
				BalancerKind.ROUND_ROBIN.create(new SplittableRandom(1)), CallTimer.shared());
		this.closeables.add(caller);
		return caller;
	}

	private static CompletableFuture<ReceivedReply> echo(BalancedCaller caller, int program, int value) {
		CallBody body = (encoder) -> encoder.writeInt(value);
		return caller.call(program, 1, ECHO, body, CallChunks.of(1024, 0), true, DEADLINE);
	}

	private static int result(CompletableFuture<ReceivedReply> future) throws Exception {
		ReceivedReply reply = future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		try {
			return reply.results().readInt();
		}
		finally {
			reply.release();
		}
	}

	private static void awaitState(BooleanSupplier condition, String what) {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > end) {
				throw new AssertionError("Not within " + DEADLINE + ": " + what);
			}
			java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		}
	}

	@Test
	void aClientGivenOnlyTheHostsRpcbindReachesTheServerRegisteredThere(RpcbindDaemon rpcbind) throws Exception {
		RpcServer server = server();
		register(rpcbind, server);
		RpcbindInstanceSource source = new RpcbindInstanceSource(List.of(rpcbind.address()), this.program, 1,
				new RpcbindResolver(TIMEOUT));
		BalancedCaller caller = caller(source);

		assertThat(result(echo(caller, this.program, 41))).isEqualTo(42);

		assertThat(caller.instanceStats()).singleElement().satisfies((stats) -> {
			assertThat(stats.instance().id())
				.isEqualTo("rpcbind://127.0.0.1:" + rpcbind.address().getPort() + "/" + this.program + "/1");
			assertThat(stats.instance().address().getPort()).isEqualTo(server.localAddress().getPort());
		});
	}

	@Test
	void aServerThatMovedToAnotherPortIsFoundAgainAfterItsInstanceIsEjected(RpcbindDaemon rpcbind) throws Exception {
		RpcServer first = server();
		RpcbindRegistration registration = register(rpcbind, first);
		BalancedCaller caller = caller(new RpcbindInstanceSource(List.of(rpcbind.address()), this.program, 1,
				new RpcbindResolver(TIMEOUT)));
		assertThat(result(echo(caller, this.program, 1))).isEqualTo(2);

		// The server goes, and comes back on another port, registered there.
		registration.close();
		first.shutdown(Duration.ZERO).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
		RpcServer second = server();
		register(rpcbind, second);

		// The first call finds the old port dead, which ejects the instance (one failure
		// ejects here); the ejection makes the source look again, and the caller moves.
		awaitState(() -> caller.instanceStats().stream()
			.map(InstanceStats::instance)
			.anyMatch((instance) -> instance.address().getPort() == second.localAddress().getPort()) || callOnce(caller),
				"the caller follows the server to port " + second.localAddress().getPort());
		awaitState(() -> callOnce(caller), "a call reaches the server at its new port");
		assertThat(caller.instanceStats()).filteredOn((stats) -> stats.state() == io.rpcrdma.client.balance.InstanceState.UP)
			.singleElement()
			.satisfies((stats) -> assertThat(stats.instance().address().getPort()).isEqualTo(second.localAddress().getPort()));
	}

	/** @return whether a call succeeded; false when it failed (the instance is being moved) */
	private boolean callOnce(BalancedCaller caller) {
		try {
			return result(echo(caller, this.program, 7)) == 8;
		}
		catch (ExecutionException ex) {
			return false;
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
	}

	@Test
	void aHostWithoutTheProgramFailsTheCallNamingTheHostTheProgramAndWhatItHas(RpcbindDaemon rpcbind) throws Exception {
		RpcServer server = server();
		register(rpcbind, server);
		BalancedCaller caller = caller(new RpcbindInstanceSource(List.of(rpcbind.address()), this.program, 2,
				new RpcbindResolver(TIMEOUT)));

		CompletableFuture<ReceivedReply> call = caller.call(this.program, 2, ECHO, CallBody.NONE, CallChunks.of(1024, 0),
				true, DEADLINE);

		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> call.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
			.havingCause()
			.isInstanceOf(ProgramNotRegisteredException.class)
			.withMessageContaining("Program 0x" + Integer.toHexString(this.program) + " version 2 is not registered")
			.withMessageContaining("127.0.0.1:" + rpcbind.address().getPort())
			.withMessageContaining("it has only version 1 over rdma");
	}

}
