package io.rpcrdma.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancerKind;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.ConnectionLimits;
import io.rpcrdma.transport.PeerLimits;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.DeprecatedConfigurationProperty;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration of RPC-over-RDMA services and clients, under {@code rpcrdma.*}.
 * <p>
 * The properties validate themselves when they are bound (Spring Boot calls
 * {@link #validate(Object, Errors)} for a {@link Validator} properties object), so an
 * invalid value fails start-up with a message that names the property and the allowed
 * range; see {@link RpcRdmaPropertiesValidator}.
 */
@ConfigurationProperties("rpcrdma")
public class RpcRdmaProperties implements Validator {

	/**
	 * RDMA provider: "auto" (disni if an adapter is usable, else siw, else loopback), "siw"
	 * (software iWARP over TCP), "disni" (RDMA adapters through libibverbs) or "loopback"
	 * (in-JVM, for tests).
	 */
	private String provider = "auto";

	/**
	 * Provider-specific settings, passed to the provider as they are: keys such as
	 * "disni.completion-mode" or "disni.local-address" (see docs/hardware.md). Each provider
	 * ignores the keys of others.
	 */
	private final Map<String, String> providerSettings = new LinkedHashMap<>();

	private final Server server = new Server();

	private final Memory memory = new Memory();

	/**
	 * Clients by name: each rpcrdma.client.<name> configures the connection pools
	 * that service interfaces imported with that client name call through.
	 */
	private final Map<String, Client> client = new LinkedHashMap<>();

	private final Ddp ddp = new Ddp();

	private final Conveyance conveyance = new Conveyance().forwardingTo(this.ddp);

	private final Backchannel backchannel = new Backchannel();

	/**
	 * Whether an rpcrdma.* property that no setting of this starter has (a misspelt key, such
	 * as rpcrdma.server.prot) stops the application at start-up. Otherwise each is logged as a
	 * warning naming the nearest valid key. A misspelt key of a client without an address
	 * stops it either way: that client would call the application's own server.
	 */
	private boolean failOnUnknownProperties = false;

	public String getProvider() {
		return this.provider;
	}

	public void setProvider(String provider) {
		this.provider = provider;
	}

	public Map<String, String> getProviderSettings() {
		return this.providerSettings;
	}

	public Server getServer() {
		return this.server;
	}

	public Memory getMemory() {
		return this.memory;
	}

	public Map<String, Client> getClient() {
		return this.client;
	}

	public Backchannel getBackchannel() {
		return this.backchannel;
	}

	public Ddp getDdp() {
		return this.ddp;
	}

	/**
	 * @return the old name of {@link #getDdp()}, bound for applications that still set it
	 * @deprecated since 0.1.0, use {@link #getDdp()}
	 */
	@Deprecated(since = "0.1.0")
	public Conveyance getConveyance() {
		return this.conveyance;
	}

	public boolean isFailOnUnknownProperties() {
		return this.failOnUnknownProperties;
	}

	public void setFailOnUnknownProperties(boolean failOnUnknownProperties) {
		this.failOnUnknownProperties = failOnUnknownProperties;
	}

	@Override
	public boolean supports(Class<?> type) {
		return RpcRdmaProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		new RpcRdmaPropertiesValidator((RpcRdmaProperties) target).validate(errors);
	}

	/** The RPC server: where it listens and how it runs calls. */
	public static class Server {

		/**
		 * Whether to serve the application's @RpcService beans. The server listens only when
		 * at least one bean is exported.
		 */
		private boolean enabled = true;

		/**
		 * Address to listen on. Unset: every interface (for the loopback provider, the in-JVM
		 * host "rpcrdma").
		 */
		private String address;

		/** Port to listen on, 0 to 65535; 0 picks any free port (see local.rpcrdma.port). */
		private int port = 20049;

		/** RPC-over-RDMA versions served, 1 and/or 2 (RFC 8166 is Version 1). */
		private List<Integer> versions = new ArrayList<>(List.of(1, 2));

		/**
		 * Version 1 inline threshold: the receive buffer size and the most sent inline,
		 * 1KB to 1MB (RFC 8166 §3.3.2 default 1KB).
		 */
		private DataSize inlineThresholdV1 = DataSize.ofBytes(1024);

		/** Version 2 inline threshold, 1KB to 1MB (draft default 4KB). */
		private DataSize inlineThresholdV2 = DataSize.ofBytes(4096);

		/** Credits granted to each connection, 1 to 65535 (RFC 8166 §3.3.1). */
		private int credits = 32;

		/**
		 * Credits all connections share, bounding the receive buffers every client together
		 * can fill (RFC 8166 §3.3.1); 0 for 4096 (or credits if larger), else at least credits
		 * and at most 16777216.
		 */
		private int creditBudget;

		private final Executor executor = new Executor();

		/**
		 * How long running calls may take to finish when the application stops, 0s to 1h.
		 * Calls arriving meanwhile are not run.
		 */
		private Duration shutdownGracePeriod = Duration.ofSeconds(10);

		/**
		 * How long a client may leave the server's RDMA Reads of its chunks (or other work the
		 * server posted on its connection) unanswered before that connection is failed and its
		 * memory reclaimed, 1ms to 1h.
		 */
		private Duration operationTimeout = PeerLimits.DEFAULT_OPERATION_TIMEOUT;

		/**
		 * The most registered memory one client connection's Read chunks hold at once; its
		 * further calls wait for its earlier ones. 4KB to 1TB.
		 */
		private DataSize bulkShare = DataSize.ofBytes(PeerLimits.DEFAULT_BULK_SHARE);

		/**
		 * The most connections one client IP address holds at once (every host behind one
		 * NAT address counts as one); more are refused before anything is made for them.
		 * 1 to max-connections.
		 */
		private int maxConnectionsPerPeer = ConnectionLimits.DEFAULT_PER_PEER;

		/** The most connections the server holds at once, 1 to 1,000,000. */
		private int maxConnections = ConnectionLimits.DEFAULT_TOTAL;

		private final DuplicateRequestCache duplicateRequestCache = new DuplicateRequestCache();

		private final ServerSecurity security = new ServerSecurity();

		private final ServerRpcbind rpcbind = new ServerRpcbind();

		/** How the server puts itself in a Spring Cloud service registry. */
		private final ServerDiscovery discovery = new ServerDiscovery();

		private final ServerBackchannel backchannel = new ServerBackchannel();

		public ServerBackchannel getBackchannel() {
			return this.backchannel;
		}

		public Duration getOperationTimeout() {
			return this.operationTimeout;
		}

		public void setOperationTimeout(Duration operationTimeout) {
			this.operationTimeout = operationTimeout;
		}

		public int getMaxConnectionsPerPeer() {
			return this.maxConnectionsPerPeer;
		}

		public void setMaxConnectionsPerPeer(int maxConnectionsPerPeer) {
			this.maxConnectionsPerPeer = maxConnectionsPerPeer;
		}

		public int getMaxConnections() {
			return this.maxConnections;
		}

		public void setMaxConnections(int maxConnections) {
			this.maxConnections = maxConnections;
		}

		public DataSize getBulkShare() {
			return this.bulkShare;
		}

		public void setBulkShare(DataSize bulkShare) {
			this.bulkShare = bulkShare;
		}

		public ServerSecurity getSecurity() {
			return this.security;
		}

		public ServerRpcbind getRpcbind() {
			return this.rpcbind;
		}

		public ServerDiscovery getDiscovery() {
			return this.discovery;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getAddress() {
			return this.address;
		}

		public void setAddress(String address) {
			this.address = address;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public List<Integer> getVersions() {
			return this.versions;
		}

		public void setVersions(List<Integer> versions) {
			this.versions = versions;
		}

		public DataSize getInlineThresholdV1() {
			return this.inlineThresholdV1;
		}

		public void setInlineThresholdV1(DataSize inlineThresholdV1) {
			this.inlineThresholdV1 = inlineThresholdV1;
		}

		public DataSize getInlineThresholdV2() {
			return this.inlineThresholdV2;
		}

		public void setInlineThresholdV2(DataSize inlineThresholdV2) {
			this.inlineThresholdV2 = inlineThresholdV2;
		}

		public int getCredits() {
			return this.credits;
		}

		public void setCredits(int credits) {
			this.credits = credits;
		}

		public int getCreditBudget() {
			return this.creditBudget;
		}

		public void setCreditBudget(int creditBudget) {
			this.creditBudget = creditBudget;
		}

		public Executor getExecutor() {
			return this.executor;
		}

		public Duration getShutdownGracePeriod() {
			return this.shutdownGracePeriod;
		}

		public void setShutdownGracePeriod(Duration shutdownGracePeriod) {
			this.shutdownGracePeriod = shutdownGracePeriod;
		}

		public DuplicateRequestCache getDuplicateRequestCache() {
			return this.duplicateRequestCache;
		}

	}

	/** How the server appears in the application's Spring Cloud registration. */
	public static class ServerDiscovery {

		/**
		 * Whether the server adds its port, provider, versions and programs (rpcrdma-port,
		 * rpcrdma-provider, rpcrdma-versions, rpcrdma-programs) to the application's Spring
		 * Cloud registration once it listens, registering the application when Spring Cloud
		 * has not yet, and deregisters it before it stops accepting. Only with a Spring Cloud
		 * service registry (ZooKeeper, Consul, Eureka) on the class path.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/** How the server registers with rpcbind (RFC 1833) on hosts that resolve services there. */
	public static class ServerRpcbind {

		/**
		 * Whether to register the exported services with rpcbind under netid rdma (rdma6 for
		 * an IPv6 address) once the server listens, and unregister them before it stops
		 * (RFC 5666 §10, §12), so clients on bare hosts can find the port. The start fails
		 * when rpcbind cannot be reached.
		 */
		private boolean enabled;

		/** The rpcbind to register with, host:port; normally this host's own. */
		private String address = "127.0.0.1:111";

		/** How long connecting to rpcbind and each of its calls may take, 1ms to 1m. */
		private Duration timeout = Duration.ofSeconds(5);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getAddress() {
			return this.address;
		}

		public void setAddress(String address) {
			this.address = address;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

	/**
	 * Which security flavors the server accepts (RFC 5531 §9: others get AUTH_ERROR and the
	 * method never runs). With nothing set every call is accepted, as before there was a policy.
	 */
	/**
	 * Calls from the server back to the clients connected to it (RFC 8167).
	 */
	public static class ServerBackchannel {

		/**
		 * Calls one connection may have outstanding to its client at once, 0 to 1024 (0: none,
		 * and RpcCallbacks then says so); each costs a receive buffer per connection.
		 */
		private int credits = 4;

		public int getCredits() {
			return this.credits;
		}

		public void setCredits(int credits) {
			this.credits = credits;
		}

	}

	/**
	 * How this application serves its @RpcCallbackService beans to the servers it calls
	 * (RFC 8167 backward direction).
	 */
	public static class Backchannel {

		/**
		 * Calls a server may have outstanding to this application on one connection, 1 to 1024;
		 * each costs a receive buffer per connection.
		 */
		private int credits = 8;

		/** Threads running callback methods, 1 to 1024. */
		private int threads = 4;

		/** Callbacks waiting for a thread, 0 to 1048576; beyond it a callback gets SYSTEM_ERR. */
		private int queueCapacity = 64;

		public int getCredits() {
			return this.credits;
		}

		public void setCredits(int credits) {
			this.credits = credits;
		}

		public int getThreads() {
			return this.threads;
		}

		public void setThreads(int threads) {
			this.threads = threads;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

	}

	public static class ServerSecurity {

		/**
		 * Flavors every service accepts unless its own entry says otherwise: none, sys, and krb5,
		 * krb5i, krb5p when the server has a Kerberos identity (kerberos.*). Unset: every flavor
		 * the server can check once any service has an entry, else every call.
		 */
		private List<String> flavors = new ArrayList<>();

		/** Per service, by the name it is exported under (the interface's simple name unless renamed). */
		private final Map<String, ServiceSecurity> services = new LinkedHashMap<>();

		/**
		 * Whether Spring Security counts an AUTH_SYS caller as authenticated. AUTH_SYS is what
		 * the caller asserts and anyone can assert any uid: turn this on only where every host
		 * that can reach the port is trusted.
		 */
		private boolean trustAuthSys;

		private final ServerKerberos kerberos = new ServerKerberos();

		public ServerKerberos getKerberos() {
			return this.kerberos;
		}

		public boolean isTrustAuthSys() {
			return this.trustAuthSys;
		}

		public void setTrustAuthSys(boolean trustAuthSys) {
			this.trustAuthSys = trustAuthSys;
		}

		public List<String> getFlavors() {
			return this.flavors;
		}

		public void setFlavors(List<String> flavors) {
			this.flavors = flavors;
		}

		public Map<String, ServiceSecurity> getServices() {
			return this.services;
		}

	}

	/**
	 * The server's Kerberos identity, for RPCSEC_GSS (krb5): its service principal and the
	 * keytab holding its key.
	 */
	public static class ServerKerberos {

		/** The service principal, e.g. rpcrdma/server.example.com@EXAMPLE.COM. */
		private String principal;

		/** The keytab file holding the principal's key. */
		private String keytab;

		public String getPrincipal() {
			return this.principal;
		}

		public void setPrincipal(String principal) {
			this.principal = principal;
		}

		public String getKeytab() {
			return this.keytab;
		}

		public void setKeytab(String keytab) {
			this.keytab = keytab;
		}

		/** How many RPCSEC_GSS contexts the server holds, and for how long. */
		private final GssContexts contexts = new GssContexts();

		/** @return whether a principal and a keytab are set */
		public boolean isConfigured() {
			return this.principal != null && this.keytab != null;
		}

		public GssContexts getContexts() {
			return this.contexts;
		}

	}

	/**
	 * How many RPCSEC_GSS contexts the server holds, per connection, per principal and in all,
	 * and for how long: every peer gets a bounded share, so one principal of the realm cannot
	 * fill the table and lock other clients out.
	 */
	public static class GssContexts {

		/** The most contexts held in all, in creation or established, 1 to 1000000. */
		private int max = 1024;

		/** The most contexts one connection may hold, 1 to 1000000; above max it changes nothing. */
		private int perConnection = 16;

		/** The most established contexts of one principal over all its connections, 1 to 1000000. */
		private int perPrincipal = 256;

		/** How long a context may stay in creation (INIT not yet complete) before it is forgotten, 1s to 1h. */
		private Duration creationTimeout = Duration.ofSeconds(30);

		/**
		 * How long an established context may go unused before it gives way to a new one even
		 * when its holder has no more than its share, 0s to 1d.
		 */
		private Duration idleLimit = Duration.ofHours(1);

		public int getMax() {
			return this.max;
		}

		public void setMax(int max) {
			this.max = max;
		}

		public int getPerConnection() {
			return this.perConnection;
		}

		public void setPerConnection(int perConnection) {
			this.perConnection = perConnection;
		}

		public int getPerPrincipal() {
			return this.perPrincipal;
		}

		public void setPerPrincipal(int perPrincipal) {
			this.perPrincipal = perPrincipal;
		}

		public Duration getCreationTimeout() {
			return this.creationTimeout;
		}

		public void setCreationTimeout(Duration creationTimeout) {
			this.creationTimeout = creationTimeout;
		}

		public Duration getIdleLimit() {
			return this.idleLimit;
		}

		public void setIdleLimit(Duration idleLimit) {
			this.idleLimit = idleLimit;
		}

	}

	/**
	 * A client's Kerberos login and the service it calls, for RPCSEC_GSS (krb5): a keytab, or
	 * the ticket cache kinit fills.
	 */
	public static class ClientKerberos {

		/** The client's principal, e.g. alice@EXAMPLE.COM. */
		private String principal;

		/** The keytab file holding the principal's key; or set ticket-cache. */
		private String keytab;

		/** The ticket cache kinit filled (e.g. /tmp/krb5cc_1000); or set keytab. */
		private String ticketCache;

		/**
		 * The server as a GSS host-based service name, service@host: rpcrdma@server.example.com
		 * for the principal rpcrdma/server.example.com@EXAMPLE.COM.
		 */
		private String service;

		public String getPrincipal() {
			return this.principal;
		}

		public void setPrincipal(String principal) {
			this.principal = principal;
		}

		public String getKeytab() {
			return this.keytab;
		}

		public void setKeytab(String keytab) {
			this.keytab = keytab;
		}

		public String getTicketCache() {
			return this.ticketCache;
		}

		public void setTicketCache(String ticketCache) {
			this.ticketCache = ticketCache;
		}

		public String getService() {
			return this.service;
		}

		public void setService(String service) {
			this.service = service;
		}

	}

	/** The flavors one service accepts. */
	public static class ServiceSecurity {

		/** Flavors the service's procedures accept. */
		private List<String> flavors = new ArrayList<>();

		/** Flavors per procedure, by method name, where they differ from the service's. */
		private final Map<String, List<String>> procedures = new LinkedHashMap<>();

		public List<String> getFlavors() {
			return this.flavors;
		}

		public void setFlavors(List<String> flavors) {
			this.flavors = flavors;
		}

		public Map<String, List<String>> getProcedures() {
			return this.procedures;
		}

	}

	/** The credential a client's calls carry. */
	public static class ClientSecurity {

		/**
		 * The flavor: none, sys, or with kerberos.* krb5 (authentication), krb5i (and integrity)
		 * or krb5p (and privacy).
		 */
		private String flavor = "none";

		private final ClientKerberos kerberos = new ClientKerberos();

		public ClientKerberos getKerberos() {
			return this.kerberos;
		}

		/** The user id AUTH_SYS asserts. Unset: this process's. */
		private Long uid;

		/** The group id AUTH_SYS asserts. Unset: this process's. */
		private Long gid;

		/** The supplementary groups AUTH_SYS asserts, at most 16. Unset: this process's (the first 16). */
		private List<Long> gids;

		/** The host name AUTH_SYS gives, at most 255 bytes. Unset: this host's. */
		private String machineName;

		public String getFlavor() {
			return this.flavor;
		}

		public void setFlavor(String flavor) {
			this.flavor = flavor;
		}

		public Long getUid() {
			return this.uid;
		}

		public void setUid(Long uid) {
			this.uid = uid;
		}

		public Long getGid() {
			return this.gid;
		}

		public void setGid(Long gid) {
			this.gid = gid;
		}

		public List<Long> getGids() {
			return this.gids;
		}

		public void setGids(List<Long> gids) {
			this.gids = gids;
		}

		public String getMachineName() {
			return this.machineName;
		}

		public void setMachineName(String machineName) {
			this.machineName = machineName;
		}

	}

	/** How the server runs service methods. */
	public static class Executor {

		/**
		 * Executor kind: "bounded-pool" (platform threads), "virtual-threads" (Java 21+, a
		 * bounded pool on 17) or "direct" (on the transport's thread: only for handlers that
		 * never block).
		 */
		private RpcServer.ExecutorKind kind = RpcServer.ExecutorKind.BOUNDED_POOL;

		/** Worker threads (the concurrent call bound for virtual threads), 1 to 10000. */
		private int threads = 4;

		/** Calls that may wait for a worker, 0 to 1000000; more are refused as overloaded. */
		private int queueCapacity = 64;

		/**
		 * The most calls of one connection queued or running at once, 0 to 1000000; its further
		 * calls wait on the connection, keeping their credits, so a busy connection cannot starve
		 * the others. 0 for the default: "threads" for a bounded pool, half of them for virtual
		 * threads. Unused by "direct".
		 */
		private int perConnection;

		public RpcServer.ExecutorKind getKind() {
			return this.kind;
		}

		public void setKind(RpcServer.ExecutorKind kind) {
			this.kind = kind;
		}

		public int getThreads() {
			return this.threads;
		}

		public void setThreads(int threads) {
			this.threads = threads;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		public int getPerConnection() {
			return this.perConnection;
		}

		public void setPerConnection(int perConnection) {
			this.perConnection = perConnection;
		}

	}

	/** The server's duplicate request cache for non-idempotent calls (RFC 5531 §9 retransmissions). */
	public static class DuplicateRequestCache {

		/** Whether retransmitted non-idempotent calls are answered from a cache instead of run again. */
		private boolean enabled = true;

		/** Entries per requester address with port (per connection), 1 to 1000000. */
		private int entriesPerClient = 256;

		/** Cached replies in all, from entries-per-client to 10000000. */
		private int entries = 8192;

		/** How long a reply stays cached, 1s to 1d. */
		private Duration ttl = Duration.ofMinutes(2);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getEntriesPerClient() {
			return this.entriesPerClient;
		}

		public void setEntriesPerClient(int entriesPerClient) {
			this.entriesPerClient = entriesPerClient;
		}

		public int getEntries() {
			return this.entries;
		}

		public void setEntries(int entries) {
			this.entries = entries;
		}

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

	}

	/** Registered memory shared by the server and every client. */
	public static class Memory {

		/** How much memory is allocated and registered at a time, 4KB to 1GB. */
		private DataSize slabSize = DataSize.ofMegabytes(1);

		/** Smallest bulk (chunk) buffer class; classes double up to largest-chunk. 4KB to 1GB. */
		private DataSize smallestChunk = DataSize.ofKilobytes(4);

		/** Largest bulk (chunk) buffer class, from smallest-chunk to 1GB. */
		private DataSize largestChunk = DataSize.ofMegabytes(16);

		/** The most memory registered for send, chunk and bulk buffers, 1MB to 1TB. */
		private DataSize maxRegistered = DataSize.ofMegabytes(256);

		/**
		 * The most memory registered for receive buffers, apart from max-registered, so that
		 * many connections cannot take the memory of bulk calls. 1MB to 1TB.
		 */
		private DataSize maxReceive = DataSize.ofMegabytes(256);

		/** How long a call waits for a buffer when its class is exhausted, 0s to 1h. */
		private Duration waitTimeout = Duration.ofSeconds(1);

		/** Record where each buffer was leased, to report leaks (costly: for tests). */
		private boolean leakTracking;

		public DataSize getSlabSize() {
			return this.slabSize;
		}

		public void setSlabSize(DataSize slabSize) {
			this.slabSize = slabSize;
		}

		public DataSize getSmallestChunk() {
			return this.smallestChunk;
		}

		public void setSmallestChunk(DataSize smallestChunk) {
			this.smallestChunk = smallestChunk;
		}

		public DataSize getLargestChunk() {
			return this.largestChunk;
		}

		public void setLargestChunk(DataSize largestChunk) {
			this.largestChunk = largestChunk;
		}

		public DataSize getMaxRegistered() {
			return this.maxRegistered;
		}

		public void setMaxRegistered(DataSize maxRegistered) {
			this.maxRegistered = maxRegistered;
		}

		public DataSize getMaxReceive() {
			return this.maxReceive;
		}

		public void setMaxReceive(DataSize maxReceive) {
			this.maxReceive = maxReceive;
		}

		public Duration getWaitTimeout() {
			return this.waitTimeout;
		}

		public void setWaitTimeout(Duration waitTimeout) {
			this.waitTimeout = waitTimeout;
		}

		public boolean isLeakTracking() {
			return this.leakTracking;
		}

		public void setLeakTracking(boolean leakTracking) {
			this.leakTracking = leakTracking;
		}

	}

	/** One named client: the servers it calls and how. */
	public static class Client {

		/**
		 * Server address as "host:port", or several for load balancing (one connection pool
		 * per address, calls spread as the balancer says, ejection and failover between
		 * them), or "rpcbind://host[:port]" (port 111 by default) for the server that host's
		 * rpcbind maps each service interface's program and version to, looked up on the
		 * first call, on each ejection and on refresh. Or "discovery:///service-id" alone:
		 * the instances a Spring Cloud DiscoveryClient knows under that id, followed as they
		 * change. Unset: this application's own RPC server (convenient in tests).
		 */
		private List<String> address = new ArrayList<>();

		/** Connections kept open to each address, 1 to 1024. */
		private int minConnections = 1;

		/** The most connections to each address, from min-connections to 1024. */
		private int maxConnections = RpcClientPool.Config.DEFAULT_MAX_CONNECTIONS;

		/**
		 * Calls at once on every open connection to an address at which another opens (up to
		 * max-connections), 1 to 65535; 1 gives each concurrent caller a connection of its own.
		 */
		private int callsPerConnection = RpcClientPool.Config.DEFAULT_CALLS_PER_CONNECTION;

		/** Calls that may wait for a connection to open, 0 to 1000000. */
		private int maxWaiting = 64;

		/** Credits requested from the server on each connection, 1 to 65535 (RFC 8166 §3.3.1). */
		private int credits = 32;

		/** The most calls awaiting replies on one connection, 1 to 65535. */
		private int maxPending = 256;

		/** Deadline of each call, retries included, 1ms to 1d. */
		private Duration callTimeout = Duration.ofSeconds(30);

		/**
		 * How often a failed call is sent again, 0 to 100: an idempotent call whose connection
		 * was lost, or any call that could not be sent; to another address when there is one.
		 * A non-idempotent call that may have reached its server is never sent again.
		 */
		private int retries = 2;

		/**
		 * Calls that time out in a row on one connection, with no reply from the server in
		 * between (on time or late), after which the connection is closed and a new one opened,
		 * as Linux's RPC client does after a major timeout; 0 to 1000, 0 never. Calls still
		 * pending on it fail with ConnectionLostException (idempotent ones are retried).
		 */
		private int unansweredTimeouts = RpcClientPool.Config.DEFAULT_UNANSWERED_TIMEOUTS;

		/**
		 * How calls are spread over the addresses: round-robin, least-outstanding (the
		 * address with the fewest calls awaiting replies) or power-of-two-choices (the less
		 * busy of two drawn at random).
		 */
		private BalancerKind balancer = BalancerKind.ROUND_ROBIN;

		private final ClientEjection ejection = new ClientEjection();

		/** RPC-over-RDMA versions spoken, 1 and/or 2. The highest is tried first. */
		private List<Integer> versions = new ArrayList<>(List.of(1, 2));

		/** Version 1 inline threshold, 1KB to 1MB. */
		private DataSize inlineThresholdV1 = DataSize.ofBytes(1024);

		/** Version 2 inline threshold, 1KB to 1MB. */
		private DataSize inlineThresholdV2 = DataSize.ofBytes(4096);

		/**
		 * Room made for a result whose size has no bound (strings, lists), 64B to 1GB; larger
		 * results fail the call (mark them @Bulk instead).
		 */
		private DataSize maxReplySize = DataSize.ofKilobytes(64);

		/** How long opening a connection may take, 1ms to 1h. */
		private Duration connectTimeout = Duration.ofSeconds(10);

		/**
		 * How long a server may leave this client's work on a connection (its RDMA Reads of
		 * reply chunks, or the Sends it confirms) unanswered before the connection is failed,
		 * 1ms to 1h.
		 */
		private Duration operationTimeout = PeerLimits.DEFAULT_OPERATION_TIMEOUT;

		private final ClientSecurity security = new ClientSecurity();

		public ClientSecurity getSecurity() {
			return this.security;
		}

		public BalancerKind getBalancer() {
			return this.balancer;
		}

		public void setBalancer(BalancerKind balancer) {
			this.balancer = balancer;
		}

		public ClientEjection getEjection() {
			return this.ejection;
		}

		public List<String> getAddress() {
			return this.address;
		}

		public void setAddress(List<String> address) {
			this.address = address;
		}

		public int getMinConnections() {
			return this.minConnections;
		}

		public void setMinConnections(int minConnections) {
			this.minConnections = minConnections;
		}

		public int getMaxConnections() {
			return this.maxConnections;
		}

		public void setMaxConnections(int maxConnections) {
			this.maxConnections = maxConnections;
		}

		public int getCallsPerConnection() {
			return this.callsPerConnection;
		}

		public void setCallsPerConnection(int callsPerConnection) {
			this.callsPerConnection = callsPerConnection;
		}

		public int getMaxWaiting() {
			return this.maxWaiting;
		}

		public void setMaxWaiting(int maxWaiting) {
			this.maxWaiting = maxWaiting;
		}

		public int getCredits() {
			return this.credits;
		}

		public void setCredits(int credits) {
			this.credits = credits;
		}

		public int getMaxPending() {
			return this.maxPending;
		}

		public void setMaxPending(int maxPending) {
			this.maxPending = maxPending;
		}

		public Duration getCallTimeout() {
			return this.callTimeout;
		}

		public void setCallTimeout(Duration callTimeout) {
			this.callTimeout = callTimeout;
		}

		public int getRetries() {
			return this.retries;
		}

		public void setRetries(int retries) {
			this.retries = retries;
		}

		public int getUnansweredTimeouts() {
			return this.unansweredTimeouts;
		}

		public void setUnansweredTimeouts(int unansweredTimeouts) {
			this.unansweredTimeouts = unansweredTimeouts;
		}

		public List<Integer> getVersions() {
			return this.versions;
		}

		public void setVersions(List<Integer> versions) {
			this.versions = versions;
		}

		public DataSize getInlineThresholdV1() {
			return this.inlineThresholdV1;
		}

		public void setInlineThresholdV1(DataSize inlineThresholdV1) {
			this.inlineThresholdV1 = inlineThresholdV1;
		}

		public DataSize getInlineThresholdV2() {
			return this.inlineThresholdV2;
		}

		public void setInlineThresholdV2(DataSize inlineThresholdV2) {
			this.inlineThresholdV2 = inlineThresholdV2;
		}

		public DataSize getMaxReplySize() {
			return this.maxReplySize;
		}

		public void setMaxReplySize(DataSize maxReplySize) {
			this.maxReplySize = maxReplySize;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public Duration getOperationTimeout() {
			return this.operationTimeout;
		}

		public void setOperationTimeout(Duration operationTimeout) {
			this.operationTimeout = operationTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

	}

	/**
	 * When an address of a client is taken out of its balancing and how it is found back.
	 */
	public static class ClientEjection {

		/**
		 * Connection failures in a row (lost connections, connections that would not open)
		 * that take an address out, 1 to 1000. Any reply resets the count.
		 */
		private int consecutiveFailures = 5;

		/** Delay before the first probe (a NULL call) of an address taken out, 1ms to 1h. */
		private Duration probeInterval = Duration.ofMillis(500);

		/** The longest delay between probes, which double from probe-interval, up to 1d. */
		private Duration maxProbeInterval = Duration.ofSeconds(30);

		/** How long a probe may take, 1ms to 1h. */
		private Duration probeTimeout = Duration.ofSeconds(2);

		public int getConsecutiveFailures() {
			return this.consecutiveFailures;
		}

		public void setConsecutiveFailures(int consecutiveFailures) {
			this.consecutiveFailures = consecutiveFailures;
		}

		public Duration getProbeInterval() {
			return this.probeInterval;
		}

		public void setProbeInterval(Duration probeInterval) {
			this.probeInterval = probeInterval;
		}

		public Duration getMaxProbeInterval() {
			return this.maxProbeInterval;
		}

		public void setMaxProbeInterval(Duration maxProbeInterval) {
			this.maxProbeInterval = maxProbeInterval;
		}

		public Duration getProbeTimeout() {
			return this.probeTimeout;
		}

		public void setProbeTimeout(Duration probeTimeout) {
			this.probeTimeout = probeTimeout;
		}

	}

	/**
	 * Which DDP-eligible values travel in chunks rather than inline (RFC 8166 §6: the
	 * Upper-Layer Binding marks data items DDP-eligible; the sender decides whether each goes
	 * inline or in a Read or Write chunk).
	 */
	public static class Ddp {

		/**
		 * Size from which DDP-eligible byte[] and ByteBuffer arguments and results not marked
		 * @Bulk go in a Read or Write chunk instead of inline, 0B to 1GB.
		 */
		private DataSize chunkThreshold = DataSize.ofKilobytes(4);

		/** Whether rpcrdma.ddp.chunk-threshold was set, so that the old key does not override it. */
		private boolean chunkThresholdSet;

		public DataSize getChunkThreshold() {
			return this.chunkThreshold;
		}

		public void setChunkThreshold(DataSize chunkThreshold) {
			this.chunkThreshold = chunkThreshold;
			this.chunkThresholdSet = true;
		}

		void setChunkThresholdFromOldKey(DataSize chunkThreshold) {
			if (!this.chunkThresholdSet) {
				this.chunkThreshold = chunkThreshold;
			}
		}

	}

	/**
	 * The keys {@code rpcrdma.conveyance.*}, the old names of {@code rpcrdma.ddp.*}: still bound,
	 * marked deprecated in the metadata so that IDEs and Boot's properties migrator point to the
	 * new name. A value set here applies unless the new key is set too.
	 *
	 * @deprecated since 0.1.0, use {@link Ddp}
	 */
	@Deprecated(since = "0.1.0")
	public static class Conveyance {

		/**
		 * Where the old key's value goes. Set after construction, not through a constructor
		 * parameter, so that binding and the configuration processor treat this class as a
		 * JavaBean with the one property {@code ddp-threshold}.
		 */
		private Ddp target;

		Conveyance forwardingTo(Ddp ddp) {
			this.target = ddp;
			return this;
		}

		@DeprecatedConfigurationProperty(replacement = "rpcrdma.ddp.chunk-threshold", since = "0.1.0",
				reason = "RFC 8166 vocabulary: DDP-eligible values go in chunks")
		public DataSize getDdpThreshold() {
			return this.target.getChunkThreshold();
		}

		public void setDdpThreshold(DataSize ddpThreshold) {
			this.target.setChunkThresholdFromOldKey(ddpThreshold);
		}

	}

}
