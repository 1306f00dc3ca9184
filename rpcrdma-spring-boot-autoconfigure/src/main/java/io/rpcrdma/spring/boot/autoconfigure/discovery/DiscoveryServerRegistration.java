package io.rpcrdma.spring.boot.autoconfigure.discovery;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcServerLifecycleListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.serviceregistry.AbstractAutoServiceRegistration;
import org.springframework.cloud.client.serviceregistry.Registration;
import org.springframework.cloud.client.serviceregistry.ServiceRegistry;

/**
 * Puts the RPC server in the application's own Spring Cloud registration once it listens, and
 * takes the application out of the registry before the server stops accepting.
 * <p>
 * Spring Cloud registers an application itself ({@link AbstractAutoServiceRegistration}), when
 * its web server starts; an application without one is not registered at all. So rather than a
 * second registration, the server adds its entries ({@link RpcRdmaDiscoveryMetadata}) to the
 * application's {@link Registration}: when the application is registered already they are
 * written again through the {@link ServiceRegistry}, and when it is not, this starts Spring
 * Cloud's auto-registration (which then also publishes its {@code InstanceRegisteredEvent},
 * on which ZooKeeper starts the watch behind its heartbeats). With auto-registration disabled
 * ({@code spring.cloud.service-registry.auto-registration.enabled=false}) nothing is
 * registered.
 * <p>
 * On the way down, {@link #stopping} stops the auto-registration (deregisters) before the
 * server stops accepting, so the registry sends no new client to a server that refuses it;
 * Spring Cloud's own stop at bean destruction then finds nothing left to do.
 */
public final class DiscoveryServerRegistration implements RpcServerLifecycleListener {

	private static final Logger logger = System.getLogger(DiscoveryServerRegistration.class.getName());

	private final ObjectProvider<Registration> registration;

	private final ObjectProvider<ServiceRegistry<?>> registry;

	private final ObjectProvider<AbstractAutoServiceRegistration<?>> autoRegistration;

	private final String providerName;

	private final List<Integer> versions;

	private volatile AbstractAutoServiceRegistration<?> registered;

	/**
	 * @param registration the application's registration
	 * @param registry the registry it is written to
	 * @param autoRegistration Spring Cloud's auto-registration of the application
	 * @param providerName the RDMA provider, advertised
	 * @param versions the RPC-over-RDMA versions the server speaks, advertised
	 */
	public DiscoveryServerRegistration(ObjectProvider<Registration> registration,
			ObjectProvider<ServiceRegistry<?>> registry, ObjectProvider<AbstractAutoServiceRegistration<?>> autoRegistration,
			String providerName, List<Integer> versions) {
		this.registration = registration;
		this.registry = registry;
		this.autoRegistration = autoRegistration;
		this.providerName = providerName;
		this.versions = List.copyOf(versions);
	}

	@Override
	public void started(RpcServer server, List<ExportedService> services) {
		try {
			register(server, services);
		}
		catch (RuntimeException ex) {
			Registration own = this.registration.getIfUnique();
			String service = (own != null) ? own.getServiceId() : "the application";
			throw new DiscoveryRegistrationFailedException("Registering " + service + " (RPC port "
					+ server.localAddress().getPort() + ") with the service registry failed: " + rootMessage(ex)
					+ "; check that the registry is reachable (for ZooKeeper spring.cloud.zookeeper.connect-string), "
					+ "or set rpcrdma.server.discovery.enabled=false", ex);
		}
	}

	private static String rootMessage(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return (root.getMessage() != null) ? root.getMessage() : root.getClass().getName();
	}

	private void register(RpcServer server, List<ExportedService> services) {
		Registration own = this.registration.getIfUnique();
		AbstractAutoServiceRegistration<?> auto = this.autoRegistration.getIfUnique();
		if (own == null || auto == null) {
			logger.log(Level.INFO, () -> "The RPC server is not put in the service registry: "
					+ ((own == null) ? "the application has no (single) Spring Cloud Registration"
							: "Spring Cloud's auto-registration is disabled (spring.cloud.service-registry.auto-registration.enabled)"));
			return;
		}
		Map<String, String> entries = entries(server, services);
		boolean written = write(own, entries);
		boolean wasRegistered = auto.isRunning();
		if (!wasRegistered) {
			auto.start();
			if (!auto.isRunning()) {
				logger.log(Level.INFO, "The RPC server is not put in the service registry: Spring Cloud's registration"
						+ " of this application is disabled");
				return;
			}
		}
		this.registered = auto;
		if (written && !wasRegistered) {
			return;
		}
		// Registered before the entries could be written (by the web server's start, or just now
		// by a registration that builds its metadata on registering, as ZooKeeper's does): write
		// them, then the registration again, which replaces it in the registry.
		if (!written && !write(own, entries)) {
			logger.log(Level.WARNING, () -> "The RPC server's entries " + entries + " could not be added to the "
					+ "registration of " + own.getServiceId() + " (its metadata is read-only, or the registration is "
					+ "switched off); discovery:/// clients will not find its RPC port");
			return;
		}
		@SuppressWarnings("unchecked")
		ServiceRegistry<Registration> writer = (ServiceRegistry<Registration>) this.registry.getIfUnique();
		if (writer != null) {
			writer.register(own);
		}
	}

	@Override
	public void stopping(RpcServer server) {
		AbstractAutoServiceRegistration<?> auto = this.registered;
		this.registered = null;
		if (auto != null) {
			auto.stop();
		}
	}

	/** What the server advertises: its port, provider, versions and programs. */
	Map<String, String> entries(RpcServer server, List<ExportedService> services) {
		Map<String, String> entries = new LinkedHashMap<>();
		entries.put(RpcRdmaDiscoveryMetadata.PORT, Integer.toString(server.localAddress().getPort()));
		entries.put(RpcRdmaDiscoveryMetadata.PROVIDER, this.providerName);
		entries.put(RpcRdmaDiscoveryMetadata.VERSIONS,
				new TreeSet<>(this.versions).stream().map(String::valueOf).collect(Collectors.joining(",")));
		entries.put(RpcRdmaDiscoveryMetadata.PROGRAMS, services.stream()
			.map((service) -> Integer.toUnsignedString(service.descriptor().program()) + ":"
					+ Integer.toUnsignedString(service.descriptor().version()))
			.distinct()
			.collect(Collectors.joining(",")));
		return entries;
	}

	/** Adds the entries; false when the registration's metadata cannot take them (yet). */
	private static boolean write(Registration registration, Map<String, String> entries) {
		try {
			Map<String, String> metadata = registration.getMetadata();
			if (metadata == null) {
				return false;
			}
			metadata.putAll(entries);
			return true;
		}
		catch (UnsupportedOperationException ex) {
			return false;
		}
	}

}
