package io.rpcrdma.spring.boot.autoconfigure.discovery;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.rpcrdma.client.balance.InstanceSource;
import io.rpcrdma.client.balance.ServerInstance;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAddress;
import io.rpcrdma.spring.boot.client.RpcClientDiscovery;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.event.HeartbeatEvent;
import org.springframework.context.ApplicationListener;

/**
 * Looks up the servers of {@code discovery:///<service-id>} clients with the application's
 * {@link DiscoveryClient}, and tells their balanced callers to read them again on each
 * {@link HeartbeatEvent}: the signal every Spring Cloud discovery implementation publishes when
 * its view may have changed (ZooKeeper on each change under its root, Consul and Eureka on
 * their catalog polls, Kubernetes on endpoint changes). The callers keep the instances still
 * listed with their pools, open the new ones on first use and drain the removed ones, so no call
 * in flight is dropped.
 */
public final class DiscoveryInstanceSources
		implements RpcClientDiscovery, ApplicationListener<HeartbeatEvent>, AutoCloseable {

	private static final Logger logger = System.getLogger(DiscoveryInstanceSources.class.getName());

	private final ObjectProvider<DiscoveryClient> discovery;

	private final String providerName;

	private final List<Source> sources = new CopyOnWriteArrayList<>();

	/**
	 * Where a client looks its instances up again after one was ejected: the ejection is told
	 * on a call's completion path, which must not wait for the registry.
	 */
	private final java.util.concurrent.ExecutorService lookups = java.util.concurrent.Executors
		.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "rpcrdma-discovery-lookup");
			thread.setDaemon(true);
			return thread;
		});

	/**
	 * @param discovery the application's discovery client (Spring Cloud's composite of all)
	 * @param providerName the RDMA provider in use: the loopback provider's hosts stay unresolved
	 */
	public DiscoveryInstanceSources(ObjectProvider<DiscoveryClient> discovery, String providerName) {
		this.discovery = discovery;
		this.providerName = providerName;
	}

	@Override
	public InstanceSource instances(String clientName, String serviceId) {
		Source source = new Source(clientName, serviceId);
		this.sources.add(source);
		return source;
	}

	/** Stops looking instances up after ejections. */
	@Override
	public void close() {
		this.lookups.shutdownNow();
	}

	@Override
	public void onApplicationEvent(HeartbeatEvent event) {
		for (Source source : this.sources) {
			source.changed();
		}
	}

	/** One client's servers: what the discovery client lists under its service id now. */
	private final class Source implements InstanceSource {

		private final String clientName;

		private final String serviceId;

		private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

		/** A lookup after an ejection is queued and has not started: more ejections join it. */
		private final java.util.concurrent.atomic.AtomicBoolean lookupQueued = new java.util.concurrent.atomic.AtomicBoolean();

		Source(String clientName, String serviceId) {
			this.clientName = clientName;
			this.serviceId = serviceId;
		}

		@Override
		public List<ServerInstance> instances() {
			DiscoveryClient client = DiscoveryInstanceSources.this.discovery.getIfAvailable();
			if (client == null) {
				throw new IllegalStateException("rpcrdma client '" + this.clientName + "' looks its servers up under '"
						+ this.serviceId + "' (rpcrdma.client." + this.clientName + ".address=discovery:///"
						+ this.serviceId + ") but the application has no DiscoveryClient bean: add a discovery "
						+ "implementation such as spring-cloud-starter-zookeeper-discovery, and check that "
						+ "spring.cloud.discovery.enabled is not false");
			}
			List<ServerInstance> found = new ArrayList<>();
			Set<String> ids = new HashSet<>();
			for (ServiceInstance instance : client.getInstances(this.serviceId)) {
				ServerInstance server = toServer(instance);
				// A registry may list one instance twice (two discovery clients in the composite).
				if (server != null && ids.add(server.id())) {
					found.add(server);
				}
			}
			// Stable order, so that round robin does not reshuffle on each refresh.
			found.sort(Comparator.comparing(ServerInstance::id));
			return found;
		}

		/** The server an instance advertises, or {@code null} when it advertises no usable RPC port. */
		private ServerInstance toServer(ServiceInstance instance) {
			Map<String, String> metadata = (instance.getMetadata() != null) ? instance.getMetadata() : Map.of();
			String host = instance.getHost();
			int port = rpcPort(instance, metadata);
			if (host == null || host.isBlank() || port < 1 || port > 65535) {
				// ZooKeeper without a web server writes the instance (port 0) a moment before the
				// RPC server's entries: not usable yet, the next heartbeat brings it.
				logger.log(Level.DEBUG, () -> "Skipping instance " + instance.getInstanceId() + " of '" + this.serviceId
						+ "': no RPC port (" + RpcRdmaDiscoveryMetadata.PORT + ") and no instance port");
				return null;
			}
			InetSocketAddress address = new RpcRdmaAddress(host, port)
				.toSocketAddress(DiscoveryInstanceSources.this.providerName);
			String id = (instance.getInstanceId() != null && !instance.getInstanceId().isBlank())
					? instance.getInstanceId() : new RpcRdmaAddress(host, port).toString();
			return new ServerInstance(id, address, metadata);
		}

		/**
		 * The rpcrdma server's own entry first, then a Kubernetes port named rpcrdma, then the
		 * instance's port (a registration made for the RPC port alone, or a static list).
		 */
		private int rpcPort(ServiceInstance instance, Map<String, String> metadata) {
			for (String key : List.of(RpcRdmaDiscoveryMetadata.PORT, RpcRdmaDiscoveryMetadata.KUBERNETES_NAMED_PORT)) {
				String value = metadata.get(key);
				if (value != null) {
					try {
						return Integer.parseInt(value.trim());
					}
					catch (NumberFormatException ex) {
						logger.log(Level.WARNING, () -> "Instance " + instance.getInstanceId() + " of '" + this.serviceId
								+ "' has " + key + "=" + value + ", not a port number; rpcrdma client '" + this.clientName
								+ "' leaves it out");
						return -1;
					}
				}
			}
			return instance.getPort();
		}

		/**
		 * An instance failed until it was ejected: the registry may already list its
		 * replacement, and not every application hears heartbeats (ZooKeeper sends them only to
		 * one that registers itself), so look again now, on a thread of this source's own.
		 */
		@Override
		public void ejected(ServerInstance instance) {
			if (!this.lookupQueued.compareAndSet(false, true)) {
				return;
			}
			try {
				DiscoveryInstanceSources.this.lookups.execute(() -> {
					this.lookupQueued.set(false);
					changed();
				});
			}
			catch (java.util.concurrent.RejectedExecutionException ex) {
				// Closed: the application is stopping.
				this.lookupQueued.set(false);
			}
		}

		@Override
		public AutoCloseable subscribe(Runnable onChange) {
			this.listeners.add(onChange);
			return () -> this.listeners.remove(onChange);
		}

		void changed() {
			for (Runnable listener : this.listeners) {
				try {
					listener.run();
				}
				catch (RuntimeException ex) {
					// The caller keeps the instances it had; the next heartbeat tries again.
					logger.log(Level.WARNING, () -> "rpcrdma client '" + this.clientName + "' could not read the "
							+ "instances of '" + this.serviceId + "' again: " + ex.getMessage());
				}
			}
		}

	}

}
