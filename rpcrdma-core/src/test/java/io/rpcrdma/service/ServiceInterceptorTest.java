package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.server.CallRejectedException;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Client and server interceptors around real calls over the loopback provider: their order,
 * a credential set by the client and read by the server, answers without a call, a server
 * refusal reaching the caller as AUTH_ERROR, outcomes observed, retries, futures.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServiceInterceptorTest {

	/** A flavor from the range RFC 5531 §8.2 leaves to private use. */
	private static final int TOKEN_FLAVOR = 0x2000_0001;

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	/** The service the tests call. */
	@RpcProgram(number = 0x20000b00, version = 1)
	public interface Echo {

		@RpcProcedure(1)
		String echo(String text);

		@RpcProcedure(2)
		CompletableFuture<String> echoLater(String text);

		@RpcProcedure(3)
		String fail(String message);

	}

	static final class EchoService implements Echo {

		final AtomicInteger calls = new AtomicInteger();

		@Override
		public String echo(String text) {
			this.calls.incrementAndGet();
			return text;
		}

		@Override
		public CompletableFuture<String> echoLater(String text) {
			this.calls.incrementAndGet();
			return CompletableFuture.supplyAsync(() -> text + " later");
		}

		@Override
		public String fail(String message) {
			this.calls.incrementAndGet();
			throw new IllegalStateException(message);
		}

	}

	private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

	private final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	private final EchoService implementation = new EchoService();

	@AfterEach
	void close() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	@Test
	void interceptorsRunInOrderAroundTheCallOnBothSides() {
		List<String> trace = new CopyOnWriteArrayList<>();
		Echo echo = connect(List.of(tracing("server-a", trace), tracing("server-b", trace)),
				List.of(clientTracing("client-a", trace), clientTracing("client-b", trace)));
		assertThat(echo.echo("hello")).isEqualTo("hello");
		assertThat(trace).containsExactly("client-a in", "client-b in", "server-a in", "server-b in", "server-b out",
				"server-a out", "client-b out", "client-a out");
	}

	@Test
	void theClientsCredentialReachesTheServersInterceptors() {
		List<OpaqueAuth> seen = new CopyOnWriteArrayList<>();
		RpcServerInterceptor recorder = (invocation) -> {
			seen.add(invocation.credential());
			return invocation.proceed();
		};
		RpcClientInterceptor token = (invocation) -> {
			invocation.credential(new RawAuth(TOKEN_FLAVOR, "tenant-7".getBytes(StandardCharsets.US_ASCII)));
			return invocation.proceed();
		};
		Echo echo = connect(List.of(recorder), List.of(token));
		assertThat(echo.echo("x")).isEqualTo("x");
		assertThat(seen).singleElement().satisfies((credential) -> {
			assertThat(credential.flavor()).isEqualTo(TOKEN_FLAVOR);
			assertThat(new String(((RawAuth) credential).body(), StandardCharsets.US_ASCII)).isEqualTo("tenant-7");
		});
	}

	@Test
	void aServerInterceptorRefusesACallWithAuthError() {
		RpcServerInterceptor gate = (invocation) -> {
			if (invocation.credential().flavor() != TOKEN_FLAVOR) {
				throw new CallRejectedException(AuthStat.AUTH_TOOWEAK, "no token");
			}
			return invocation.proceed();
		};
		Echo echo = connect(List.of(gate), List.of());
		assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> echo.echo("x"))
			.withMessageContaining("AUTH_TOOWEAK");
		assertThat(this.implementation.calls).hasValue(0);
	}

	@Test
	void aClientInterceptorAnswersWithoutCallingTheServer() {
		Echo echo = connect(List.of(), List.of((invocation) -> "cached " + invocation.arguments()[0]));
		assertThat(echo.echo("x")).isEqualTo("cached x");
		assertThat(this.implementation.calls).hasValue(0);
	}

	@Test
	void aClientInterceptorChangesArgumentsAndSeesFailures() {
		List<Throwable> failures = new CopyOnWriteArrayList<>();
		RpcClientInterceptor upper = (invocation) -> {
			invocation.arguments()[0] = ((String) invocation.arguments()[0]).toUpperCase(java.util.Locale.ROOT);
			try {
				return invocation.proceed();
			}
			catch (Throwable ex) {
				failures.add(ex);
				throw ex;
			}
		};
		Echo echo = connect(List.of(), List.of(upper));
		assertThat(echo.echo("loud")).isEqualTo("LOUD");
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> echo.fail("boom"))
			.withMessageContaining("BOOM");
		assertThat(failures).singleElement().isInstanceOf(IllegalStateException.class);
	}

	@Test
	void aClientInterceptorRetries() {
		AtomicInteger attempts = new AtomicInteger();
		RpcServerInterceptor flaky = (invocation) -> {
			if (attempts.incrementAndGet() == 1) {
				throw new IllegalStateException("first attempt refused");
			}
			return invocation.proceed();
		};
		RpcClientInterceptor retry = (invocation) -> {
			try {
				return invocation.proceed();
			}
			catch (IllegalStateException ex) {
				return invocation.proceed();
			}
		};
		Echo echo = connect(List.of(flaky), List.of(retry));
		assertThat(echo.echo("again")).isEqualTo("again");
		assertThat(attempts).hasValue(2);
	}

	@Test
	void interceptorsSeeTheFutureOfAnAsynchronousMethod() throws Exception {
		List<Object> results = new CopyOnWriteArrayList<>();
		AtomicReference<CompletableFuture<Void>> watched = new AtomicReference<>();
		RpcClientInterceptor watcher = (invocation) -> {
			Object future = invocation.proceed();
			watched.set(((CompletableFuture<?>) future).thenAccept(results::add));
			return future;
		};
		RpcServerInterceptor serverWatcher = (invocation) -> {
			Object future = invocation.proceed();
			assertThat(future).isInstanceOf(CompletableFuture.class);
			return future;
		};
		Echo echo = connect(List.of(serverWatcher), List.of(watcher));
		assertThat(echo.echoLater("soon").get(20, TimeUnit.SECONDS)).isEqualTo("soon later");
		// The interceptor's stage runs after the future completes, maybe after get() returned.
		watched.get().get(20, TimeUnit.SECONDS);
		assertThat(results).containsExactly("soon later");
	}

	@Test
	void aScopedInterceptorLeavesOtherServicesAlone() {
		RpcClientInterceptor never = (invocation) -> {
			throw new AssertionError("not for this service");
		};
		Echo echo = connect(List.of(), List.of(never.onlyFor(Runnable.class)));
		assertThat(echo.echo("free")).isEqualTo("free");
	}

	private static RpcServerInterceptor tracing(String name, List<String> trace) {
		return (invocation) -> {
			trace.add(name + " in");
			try {
				return invocation.proceed();
			}
			finally {
				trace.add(name + " out");
			}
		};
	}

	private static RpcClientInterceptor clientTracing(String name, List<String> trace) {
		return (invocation) -> {
			trace.add(name + " in");
			try {
				return invocation.proceed();
			}
			finally {
				trace.add(name + " out");
			}
		};
	}

	private Echo connect(List<RpcServerInterceptor> serverInterceptors, List<RpcClientInterceptor> clientInterceptors) {
		RdmaProvider provider = RdmaProviders.open("loopback");
		this.closeables.add(provider);
		RegisteredMemoryPool pool = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		this.closeables.add(pool);
		ProgramRegistry registry = new ProgramRegistry();
		new ServiceExporter(this.introspector, registry, ServiceCallObserver.NONE, serverInterceptors)
			.export(this.implementation);
		RpcServer server = RpcServer.start(RpcServer.Config.defaults(provider, pool,
				InetSocketAddress.createUnresolved("interceptors", 0)), registry);
		this.closeables.add(server);
		RpcClientPool clients = RpcClientPool.connect(provider, pool, server.localAddress(), TransportConfig.defaults(), 16,
				RpcClientPool.Config.of(1, 1));
		this.closeables.add(clients);
		return new ServiceClientFactory(this.introspector).create(Echo.class, clients,
				ServiceClientOptions.DEFAULTS.withTimeout(DEADLINE).withInterceptors(clientInterceptors));
	}

}
