package io.rpcrdma.spring.boot.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.verbs.RdmaProviders;

import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

/**
 * Checks every {@code rpcrdma.*} value against its allowed range. Each error names the
 * property, the allowed range and the value found, so that start-up fails with a message the
 * operator can act on.
 */
final class RpcRdmaPropertiesValidator {

	private static final long KB = 1024;

	private static final long MB = 1024 * KB;

	private static final long GB = 1024 * MB;

	/** A client address naming a discovery service id, RpcClientSpec.DISCOVERY_PREFIX. */
	private static final String DISCOVERY_PREFIX = "discovery:///";

	/** Spring Cloud Commons' lookup, named: it is an optional dependency. */
	private static final String DISCOVERY_CLIENT = "org.springframework.cloud.client.discovery.DiscoveryClient";

	private final RpcRdmaProperties properties;

	private Errors errors;

	RpcRdmaPropertiesValidator(RpcRdmaProperties properties) {
		this.properties = properties;
	}

	void validate(Errors errors) {
		this.errors = errors;
		checkProvider();
		checkServer(this.properties.getServer());
		checkMemory(this.properties.getMemory());
		for (Map.Entry<String, RpcRdmaProperties.Client> entry : this.properties.getClient().entrySet()) {
			checkClient("rpcrdma.client." + entry.getKey(), entry.getValue());
		}
		checkSize("rpcrdma.ddp.chunk-threshold", this.properties.getDdp().getChunkThreshold(), 0, GB);
		RpcRdmaProperties.Backchannel backchannel = this.properties.getBackchannel();
		checkInt("rpcrdma.backchannel.credits", backchannel.getCredits(), 1, 1024);
		checkInt("rpcrdma.backchannel.threads", backchannel.getThreads(), 1, 1024);
		checkInt("rpcrdma.backchannel.queue-capacity", backchannel.getQueueCapacity(), 0, 1 << 20);
	}

	private void checkProvider() {
		String provider = this.properties.getProvider();
		List<String> known = RdmaProviders.knownNames();
		if (provider == null || !known.contains(provider.trim().toLowerCase(Locale.ROOT))) {
			reject("rpcrdma.provider", "must be one of " + known, provider);
		}
	}

	private void checkServer(RpcRdmaProperties.Server server) {
		checkInt("rpcrdma.server.port", server.getPort(), 0, 65535);
		checkInt("rpcrdma.server.backchannel.credits", server.getBackchannel().getCredits(), 0, 1024);
		checkVersions("rpcrdma.server.versions", server.getVersions());
		checkSize("rpcrdma.server.inline-threshold-v1", server.getInlineThresholdV1(), KB, MB);
		checkSize("rpcrdma.server.inline-threshold-v2", server.getInlineThresholdV2(), KB, MB);
		checkInt("rpcrdma.server.credits", server.getCredits(), 1, 65535);
		if (server.getCreditBudget() != 0) {
			checkInt("rpcrdma.server.credit-budget", server.getCreditBudget(), Math.max(1, server.getCredits()), 1 << 24);
		}
		if (server.getExecutor().getKind() == null) {
			reject("rpcrdma.server.executor.kind", "must be one of bounded-pool, virtual-threads, direct", null);
		}
		checkInt("rpcrdma.server.executor.threads", server.getExecutor().getThreads(), 1, 10_000);
		checkInt("rpcrdma.server.executor.queue-capacity", server.getExecutor().getQueueCapacity(), 0, 1_000_000);
		checkInt("rpcrdma.server.executor.per-connection", server.getExecutor().getPerConnection(), 0, 1_000_000);
		checkDuration("rpcrdma.server.shutdown-grace-period", server.getShutdownGracePeriod(), Duration.ZERO,
				Duration.ofHours(1));
		checkDuration("rpcrdma.server.operation-timeout", server.getOperationTimeout(), Duration.ofMillis(1),
				Duration.ofHours(1));
		checkSize("rpcrdma.server.bulk-share", server.getBulkShare(), 4 * KB, 1024 * GB);
		checkInt("rpcrdma.server.max-connections", server.getMaxConnections(), 1, 1_000_000);
		checkInt("rpcrdma.server.max-connections-per-peer", server.getMaxConnectionsPerPeer(), 1,
				Math.max(1, server.getMaxConnections()));
		RpcRdmaProperties.DuplicateRequestCache drc = server.getDuplicateRequestCache();
		checkInt("rpcrdma.server.duplicate-request-cache.entries-per-client", drc.getEntriesPerClient(), 1, 1_000_000);
		checkInt("rpcrdma.server.duplicate-request-cache.entries", drc.getEntries(),
				Math.max(1, drc.getEntriesPerClient()), 10_000_000);
		checkDuration("rpcrdma.server.duplicate-request-cache.ttl", drc.getTtl(), Duration.ofSeconds(1),
				Duration.ofDays(1));
		RpcRdmaProperties.ServerRpcbind rpcbind = server.getRpcbind();
		try {
			RpcRdmaAddress.parse(rpcbind.getAddress());
		}
		catch (IllegalArgumentException ex) {
			reject("rpcrdma.server.rpcbind.address", "must be host:port, normally 127.0.0.1:111 (" + ex.getMessage() + ")",
					rpcbind.getAddress());
		}
		checkDuration("rpcrdma.server.rpcbind.timeout", rpcbind.getTimeout(), Duration.ofMillis(1), Duration.ofMinutes(1));
		RpcRdmaProperties.ServerSecurity security = server.getSecurity();
		RpcRdmaProperties.ServerKerberos kerberos = security.getKerberos();
		if ((kerberos.getPrincipal() == null) != (kerberos.getKeytab() == null)) {
			reject("rpcrdma.server.security.kerberos", "needs both principal and keytab",
					"principal " + kerberos.getPrincipal() + ", keytab " + kerberos.getKeytab());
		}
		RpcRdmaProperties.GssContexts contexts = kerberos.getContexts();
		String gss = "rpcrdma.server.security.kerberos.contexts.";
		checkInt(gss + "max", contexts.getMax(), 1, 1_000_000);
		checkInt(gss + "per-connection", contexts.getPerConnection(), 1, 1_000_000);
		checkInt(gss + "per-principal", contexts.getPerPrincipal(), 1, 1_000_000);
		checkDuration(gss + "creation-timeout", contexts.getCreationTimeout(), Duration.ofSeconds(1), Duration.ofHours(1));
		checkDuration(gss + "idle-limit", contexts.getIdleLimit(), Duration.ZERO, Duration.ofDays(1));
		String krb5 = kerberos.isConfigured() ? null
				: "needs the server's Kerberos identity: set rpcrdma.server.security.kerberos.principal and .keytab";
		checkFlavors("rpcrdma.server.security.flavors", security.getFlavors(), krb5);
		for (Map.Entry<String, RpcRdmaProperties.ServiceSecurity> service : security.getServices().entrySet()) {
			String prefix = "rpcrdma.server.security.services." + service.getKey();
			checkFlavors(prefix + ".flavors", service.getValue().getFlavors(), krb5);
			for (Map.Entry<String, List<String>> procedure : service.getValue().getProcedures().entrySet()) {
				checkFlavors(prefix + ".procedures." + procedure.getKey(), procedure.getValue(), krb5);
			}
		}
	}

	/**
	 * Each name must be a flavor: none, sys, and krb5, krb5i or krb5p unless
	 * {@code krb5Missing} says what they lack.
	 */
	private void checkFlavors(String property, List<String> flavors, String krb5Missing) {
		if (flavors == null) {
			return;
		}
		for (int i = 0; i < flavors.size(); i++) {
			String name = flavors.get(i);
			// A client has one flavor: its property takes no index.
			String element = property.endsWith(".flavor") ? property : property + "[" + i + "]";
			SecurityFlavor flavor;
			try {
				flavor = SecurityFlavor.of(String.valueOf(name));
			}
			catch (IllegalArgumentException ex) {
				reject(element, "must be one of none, sys, krb5, krb5i, krb5p", name);
				continue;
			}
			if (flavor.authenticates() && krb5Missing != null) {
				reject(element, flavor + " " + krb5Missing, name);
			}
		}
	}

	private void checkClientSecurity(String prefix, RpcRdmaProperties.ClientSecurity security) {
		RpcRdmaProperties.ClientKerberos kerberos = security.getKerberos();
		String krb5 = null;
		if (kerberos.getPrincipal() == null || kerberos.getService() == null) {
			krb5 = "needs " + prefix + ".kerberos.principal (the client's) and " + prefix
					+ ".kerberos.service (the server's, as service@host)";
		}
		else if ((kerberos.getKeytab() == null) == (kerberos.getTicketCache() == null)) {
			krb5 = "needs exactly one of " + prefix + ".kerberos.keytab and " + prefix + ".kerberos.ticket-cache";
		}
		checkFlavors(prefix + ".flavor", List.of(String.valueOf(security.getFlavor())), krb5);
		checkUnsigned32(prefix + ".uid", security.getUid());
		checkUnsigned32(prefix + ".gid", security.getGid());
		List<Long> gids = security.getGids();
		if (gids != null) {
			if (gids.size() > AuthSys.MAX_GIDS) {
				reject(prefix + ".gids", "must hold at most " + AuthSys.MAX_GIDS + " groups (RFC 5531 Appendix A)", gids);
			}
			for (int i = 0; i < gids.size(); i++) {
				checkUnsigned32(prefix + ".gids[" + i + "]", gids.get(i));
			}
		}
		String machine = security.getMachineName();
		if (machine != null && machine.getBytes(StandardCharsets.UTF_8).length > AuthSys.MAX_MACHINE_NAME_LENGTH) {
			reject(prefix + ".machine-name", "must be at most " + AuthSys.MAX_MACHINE_NAME_LENGTH
					+ " bytes of UTF-8 (RFC 5531 Appendix A)", machine);
		}
	}

	private void checkUnsigned32(String property, Long value) {
		if (value != null && (value < 0 || value > 0xFFFF_FFFFL)) {
			reject(property, "must be from 0 to 4294967295", value);
		}
	}

	private void checkMemory(RpcRdmaProperties.Memory memory) {
		checkSize("rpcrdma.memory.slab-size", memory.getSlabSize(), 4 * KB, GB);
		checkSize("rpcrdma.memory.smallest-chunk", memory.getSmallestChunk(), 4 * KB, GB);
		long smallest = (memory.getSmallestChunk() != null) ? memory.getSmallestChunk().toBytes() : 4 * KB;
		checkSize("rpcrdma.memory.largest-chunk", memory.getLargestChunk(), Math.max(4 * KB, smallest), GB);
		checkSize("rpcrdma.memory.max-registered", memory.getMaxRegistered(), MB, 1024 * GB);
		checkSize("rpcrdma.memory.max-receive", memory.getMaxReceive(), MB, 1024 * GB);
		checkDuration("rpcrdma.memory.wait-timeout", memory.getWaitTimeout(), Duration.ZERO, Duration.ofHours(1));
	}

	private void checkClient(String prefix, RpcRdmaProperties.Client client) {
		checkClientSecurity(prefix + ".security", client.getSecurity());
		List<String> addresses = client.getAddress();
		if (addresses != null) {
			for (int i = 0; i < addresses.size(); i++) {
				if (addresses.get(i) != null && addresses.get(i).trim().startsWith(DISCOVERY_PREFIX)) {
					checkDiscoveryAddress(prefix, addresses, i);
					continue;
				}
				try {
					if (RpcRdmaAddress.isRpcbind(addresses.get(i))) {
						RpcRdmaAddress.parseRpcbind(addresses.get(i));
					}
					else {
						RpcRdmaAddress.parse(addresses.get(i));
					}
				}
				catch (IllegalArgumentException ex) {
					reject(prefix + ".address[" + i + "]", "must be host:port or rpcbind://host[:port], with a port from 1 "
							+ "to 65535 (" + ex.getMessage() + ")", addresses.get(i));
				}
			}
		}
		checkInt(prefix + ".min-connections", client.getMinConnections(), 1, 1024);
		checkInt(prefix + ".max-connections", client.getMaxConnections(), Math.max(1, client.getMinConnections()), 1024);
		checkInt(prefix + ".calls-per-connection", client.getCallsPerConnection(), 1, 65535);
		checkInt(prefix + ".max-waiting", client.getMaxWaiting(), 0, 1_000_000);
		checkInt(prefix + ".credits", client.getCredits(), 1, 65535);
		checkInt(prefix + ".max-pending", client.getMaxPending(), 1, 65535);
		checkDuration(prefix + ".call-timeout", client.getCallTimeout(), Duration.ofMillis(1), Duration.ofDays(1));
		checkInt(prefix + ".retries", client.getRetries(), 0, 100);
		checkInt(prefix + ".unanswered-timeouts", client.getUnansweredTimeouts(), 0, 1000);
		checkVersions(prefix + ".versions", client.getVersions());
		checkSize(prefix + ".inline-threshold-v1", client.getInlineThresholdV1(), KB, MB);
		checkSize(prefix + ".inline-threshold-v2", client.getInlineThresholdV2(), KB, MB);
		checkSize(prefix + ".max-reply-size", client.getMaxReplySize(), 64, GB);
		checkDuration(prefix + ".connect-timeout", client.getConnectTimeout(), Duration.ofMillis(1), Duration.ofHours(1));
		checkDuration(prefix + ".operation-timeout", client.getOperationTimeout(), Duration.ofMillis(1),
				Duration.ofHours(1));
		if (client.getBalancer() == null) {
			reject(prefix + ".balancer", "must be round-robin, least-outstanding or power-of-two-choices", null);
		}
		RpcRdmaProperties.ClientEjection ejection = client.getEjection();
		checkInt(prefix + ".ejection.consecutive-failures", ejection.getConsecutiveFailures(), 1, 1000);
		checkDuration(prefix + ".ejection.probe-interval", ejection.getProbeInterval(), Duration.ofMillis(1),
				Duration.ofHours(1));
		checkDuration(prefix + ".ejection.max-probe-interval", ejection.getMaxProbeInterval(),
				(ejection.getProbeInterval() != null) ? ejection.getProbeInterval() : Duration.ofMillis(1),
				Duration.ofDays(1));
		checkDuration(prefix + ".ejection.probe-timeout", ejection.getProbeTimeout(), Duration.ofMillis(1),
				Duration.ofHours(1));
	}

	private void checkVersions(String property, List<Integer> versions) {
		if (versions == null || versions.isEmpty() || versions.stream().anyMatch((v) -> v == null || v < 1 || v > 2)) {
			reject(property, "must list RPC-over-RDMA versions 1 and/or 2", versions);
		}
	}

	private void checkInt(String property, int value, long min, long max) {
		if (value < min || value > max) {
			reject(property, "must be between " + min + " and " + max, value);
		}
	}

	private void checkSize(String property, DataSize value, long min, long max) {
		if (value == null || value.toBytes() < min || value.toBytes() > max) {
			reject(property, "must be between " + size(min) + " and " + size(max),
					(value != null) ? size(value.toBytes()) : null);
		}
	}

	private void checkDuration(String property, Duration value, Duration min, Duration max) {
		if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
			reject(property, "must be between " + duration(min) + " and " + duration(max),
					(value != null) ? duration(value) : null);
		}
	}

	/** Sizes as the properties are written: 4KB, 1MB, 512B. */
	static String size(long bytes) {
		String[] units = { "TB", "GB", "MB", "KB" };
		for (int i = 0; i < units.length; i++) {
			long unit = 1L << (10 * (4 - i));
			if (bytes != 0 && bytes % unit == 0) {
				return (bytes / unit) + units[i];
			}
		}
		return bytes + "B";
	}

	/** Durations as the properties are written: 1ms, 30s, 2m, 1h. */
	static String duration(Duration value) {
		if (value.isZero()) {
			return "0s";
		}
		long millis = value.toMillis();
		if (!value.equals(Duration.ofMillis(millis))) {
			return value.toString();
		}
		long[] units = { 86_400_000L, 3_600_000L, 60_000L, 1000L };
		String[] names = { "d", "h", "m", "s" };
		for (int i = 0; i < units.length; i++) {
			if (millis % units[i] == 0) {
				return (millis / units[i]) + names[i];
			}
		}
		return millis + "ms";
	}

	/**
	 * A discovery:///service-id address stands alone, and needs Spring Cloud Commons (whose
	 * DiscoveryClient looks it up) on the class path.
	 */
	private void checkDiscoveryAddress(String prefix, List<String> addresses, int i) {
		String property = prefix + ".address[" + i + "]";
		String value = addresses.get(i).trim();
		String serviceId = value.substring(DISCOVERY_PREFIX.length());
		if (serviceId.isBlank() || serviceId.indexOf('/') >= 0) {
			reject(property, "must be discovery:///<service-id> with a service id and nothing after it, for example "
					+ "discovery:///greeter", value);
		}
		else if (addresses.size() > 1) {
			reject(property, "must be the client's only address: a client either looks its servers up in a discovery "
					+ "service or lists them as host:port, not both", value);
		}
		else if (!ClassUtils.isPresent(DISCOVERY_CLIENT, getClass().getClassLoader())) {
			reject(property, "needs Spring Cloud's DiscoveryClient, which is not on the class path: add "
					+ "org.springframework.cloud:spring-cloud-commons with a discovery implementation (for example "
					+ "spring-cloud-starter-zookeeper-discovery, -consul-discovery, -netflix-eureka-client or "
					+ "spring-cloud-starter-kubernetes-client), or give host:port addresses", value);
		}
	}

	private void reject(String property, String rule, Object value) {
		this.errors.reject("rpcrdma.invalid", property + " " + rule + ", got " + value);
	}

}
