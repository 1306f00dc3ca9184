package io.rpcrdma.spring.boot.autoconfigure.server;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.rpcrdma.server.InFlightTracker;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;
import io.rpcrdma.service.ServiceExporter;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * Runs the RPC server of the application's {@link io.rpcrdma.spring.boot.RpcService
 * RpcService} beans.
 * <ul>
 * <li>Starts listening once the context is refreshed (the last lifecycle phase to start), so
 * no call reaches a bean that is not ready, and only when something is exported: a
 * client-only application does not listen.</li>
 * <li>Keeps the JVM alive while it listens, as Spring Boot's web servers do: a non-daemon
 * thread waits until the server stops, so an application that serves RPC and nothing else
 * (no web starter) does not exit once {@code main} returns. The server's own threads are
 * daemons, so that a server left unstopped never holds a JVM that is meant to exit.</li>
 * <li>Publishes the bound port as {@value #PORT_PROPERTY} in the environment (like
 * {@code local.server.port}), useful with {@code rpcrdma.server.port=0}.</li>
 * <li>Tells {@link RpcServerLifecycleListener} beans once it listens (a listener that throws
 * fails the start) and before it stops accepting.</li>
 * <li>Stops first when the context closes ({@link #PHASE}: before web servers, which stop at
 * lower phases, and before the beans the services use are destroyed): it stops accepting
 * connections, lets running calls finish within {@code rpcrdma.server.shutdown-grace-period}
 * (calls arriving meanwhile are not run), then closes every connection so clients' pending
 * calls fail at once instead of hanging.</li>
 * </ul>
 */
public final class RpcRdmaServerLifecycle implements SmartLifecycle {

	/** The environment property holding the bound port. */
	public static final String PORT_PROPERTY = "local.rpcrdma.port";

	/** Started last, stopped first: web servers stop at lower phases. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE;

	private static final String PROPERTY_SOURCE_NAME = "rpcrdma.ports";

	private static final System.Logger logger = System.getLogger(RpcRdmaServerLifecycle.class.getName());

	private final Supplier<RpcServer.Config> config;

	private final ProgramRegistry registry;

	private final ServiceExporter exporter;

	private final ConfigurableEnvironment environment;

	private final List<RpcServerLifecycleListener> listeners;

	private volatile RpcServer server;

	/** The settings the running server was started with. */
	private volatile RpcServer.Config settings;

	private volatile boolean running;

	/** Keeps the JVM alive while the server listens; {@code null} when it does not. */
	private ServerAwait await;

	/**
	 * @param config the server's settings, built when it starts
	 * @param registry the procedures it serves
	 * @param exporter what exported them
	 * @param environment where the bound port is published, or {@code null}
	 */
	public RpcRdmaServerLifecycle(Supplier<RpcServer.Config> config, ProgramRegistry registry, ServiceExporter exporter,
			ConfigurableEnvironment environment) {
		this(config, registry, exporter, environment, List.of());
	}

	/**
	 * @param config the server's settings, built when it starts
	 * @param registry the procedures it serves
	 * @param exporter what exported them
	 * @param environment where the bound port is published, or {@code null}
	 * @param listeners told once the server listens and before it stops accepting
	 */
	public RpcRdmaServerLifecycle(Supplier<RpcServer.Config> config, ProgramRegistry registry, ServiceExporter exporter,
			ConfigurableEnvironment environment, List<RpcServerLifecycleListener> listeners) {
		this.config = Objects.requireNonNull(config, "config");
		this.registry = Objects.requireNonNull(registry, "registry");
		this.exporter = Objects.requireNonNull(exporter, "exporter");
		this.environment = environment;
		this.listeners = List.copyOf(listeners);
	}

	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		List<ExportedService> services = this.exporter.exported();
		if (services.isEmpty()) {
			logger.log(Level.INFO, "No @RpcService beans to serve; the RPC-over-RDMA server does not listen");
			this.running = true;
			return;
		}
		RpcServer.Config settings = this.config.get();
		RpcServer started;
		try {
			started = RpcServer.start(settings, this.registry);
		}
		catch (RuntimeException ex) {
			throw new RpcServerListenException(settings.bindAddress(), settings.provider().name(), ex);
		}
		try {
			for (RpcServerLifecycleListener listener : this.listeners) {
				listener.started(started, services);
			}
		}
		catch (RuntimeException ex) {
			// Announced nowhere, or withdrawn by the listener that failed: stop at once.
			started.shutdown(Duration.ZERO).join();
			throw ex;
		}
		this.settings = settings;
		this.server = started;
		this.running = true;
		this.await = ServerAwait.start("rpcrdma-server-" + started.localAddress().getPort());
		int port = started.localAddress().getPort();
		publishPort(port);
		logger.log(Level.INFO, () -> "RPC-over-RDMA server listening on " + started.localAddress() + " (provider "
				+ settings.provider().name() + "), serving " + services);
	}

	@Override
	public void stop() {
		CompletableFuture<InFlightTracker.ShutdownReport> stopping = beginStop();
		if (stopping != null) {
			try {
				report(stopping.get(graceOf().toMillis() + 60_000, TimeUnit.MILLISECONDS));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				logger.log(Level.WARNING, "The RPC-over-RDMA server did not shut down cleanly", ex);
			}
		}
	}

	@Override
	public void stop(Runnable callback) {
		CompletableFuture<InFlightTracker.ShutdownReport> stopping = beginStop();
		if (stopping == null) {
			callback.run();
			return;
		}
		stopping.whenComplete((result, error) -> {
			try {
				if (error != null) {
					logger.log(Level.WARNING, "The RPC-over-RDMA server did not shut down cleanly", error);
				}
				else {
					report(result);
				}
			}
			finally {
				callback.run();
			}
		});
	}

	/**
	 * Begins the shutdown before {@link #isRunning()} turns false, so that once it has, no new
	 * call is admitted any more.
	 */
	private synchronized CompletableFuture<InFlightTracker.ShutdownReport> beginStop() {
		RpcServer stopping = this.server;
		CompletableFuture<InFlightTracker.ShutdownReport> done = null;
		if (stopping != null) {
			Duration grace = graceOf();
			// Withdrawn first (rpcbind), so no client is sent to a server that no longer accepts.
			for (int i = this.listeners.size() - 1; i >= 0; i--) {
				try {
					this.listeners.get(i).stopping(stopping);
				}
				catch (RuntimeException ex) {
					logger.log(Level.WARNING, "An RPC server lifecycle listener failed while the server stops", ex);
				}
			}
			logger.log(Level.INFO, () -> "RPC-over-RDMA server on " + stopping.localAddress()
					+ " stops accepting calls; running calls may take " + grace);
			done = stopping.shutdown(grace);
			publishPort(-1);
		}
		this.server = null;
		this.running = false;
		if (this.await != null) {
			this.await.release();
			this.await = null;
		}
		return done;
	}

	private Duration graceOf() {
		RpcServer.Config started = this.settings;
		return (started != null) ? started.gracePeriod() : Duration.ZERO;
	}

	private static void report(InFlightTracker.ShutdownReport report) {
		logger.log(Level.INFO, () -> "RPC-over-RDMA server stopped: " + report);
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/** @return the running server; empty before start, after stop, or when nothing is exported */
	public Optional<RpcServer> server() {
		return Optional.ofNullable(this.server);
	}

	/** @return the bound port, or -1 when not listening */
	public int port() {
		RpcServer current = this.server;
		return (current != null) ? current.localAddress().getPort() : -1;
	}

	/**
	 * Where a client in this application reaches the server: the bound address, with a
	 * wildcard address replaced by the loopback interface.
	 * @return the address, empty when not listening
	 */
	public Optional<InetSocketAddress> localAddress() {
		RpcServer current = this.server;
		if (current == null) {
			return Optional.empty();
		}
		InetSocketAddress bound = current.localAddress();
		if (!bound.isUnresolved() && bound.getAddress().isAnyLocalAddress()) {
			return Optional.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), bound.getPort()));
		}
		return Optional.of(bound);
	}

	/** @return the services exported, in export order */
	public List<ExportedService> exportedServices() {
		return this.exporter.exported();
	}

	@SuppressWarnings("unchecked")
	private void publishPort(int port) {
		if (this.environment == null) {
			return;
		}
		MutablePropertySources sources = this.environment.getPropertySources();
		PropertySource<?> source = sources.get(PROPERTY_SOURCE_NAME);
		if (source == null) {
			source = new MapPropertySource(PROPERTY_SOURCE_NAME, new HashMap<>());
			sources.addFirst(source);
		}
		((Map<String, Object>) source.getSource()).put(PORT_PROPERTY, port);
	}

}
