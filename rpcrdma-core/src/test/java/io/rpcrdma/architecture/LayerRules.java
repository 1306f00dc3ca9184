package io.rpcrdma.architecture;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The layering of docs/architecture.md as rules over source files. Each layer may name the
 * layers below it, never one above; the RDMA providers' packages are reached only through the
 * provider SPI ({@code io.rpcrdma.verbs}); client and server share nothing but what lies below
 * both; and dependencies show in the imports, not in fully qualified names in code.
 */
final class LayerRules {

	static final String PROVIDER_HELPERS = "provider-helpers";

	static final String SERVICE_VERBS = "service-verbs";

	static final String CLIENT_SERVER = "client-server";

	static final String SERVER_CLIENT = "server-client";

	static final String UPWARD = "upward";

	static final String SIDEWAYS = "sideways";

	static final String QUALIFIED_NAME = "qualified-name";

	static final String SPRING_IN_CORE = "spring-in-core";

	/** The providers and their shared helpers: reached only from inside {@code io.rpcrdma.verbs}. */
	private static final List<String> PROVIDER_PACKAGES = List.of("io.rpcrdma.verbs.siw", "io.rpcrdma.verbs.loopback",
			"io.rpcrdma.verbs.disni", "io.rpcrdma.verbs.support", "io.rpcrdma.verbs.soft");

	/**
	 * Layer heights, bottom up, as drawn in docs/architecture.md; a package (with its
	 * sub-packages) may name its own height or lower. {@code io.rpcrdma.log} lies under all, for
	 * helpers any layer may share. Client and server stand side by side; the
	 * rules {@link #CLIENT_SERVER} and {@link #SERVER_CLIENT} keep them apart, and what joins
	 * them (the backward direction) stands above both.
	 */
	private static final Map<String, Integer> HEIGHTS = Map.ofEntries(Map.entry("io.rpcrdma.log", -1),
			Map.entry("io.rpcrdma.verbs", 0),
			Map.entry("io.rpcrdma.memory", 1), Map.entry("io.rpcrdma.xdr", 1), Map.entry("io.rpcrdma.oncrpc", 2),
			Map.entry("io.rpcrdma.protocol", 3), Map.entry("io.rpcrdma.transport", 4), Map.entry("io.rpcrdma.client", 5),
			Map.entry("io.rpcrdma.server", 5), Map.entry("io.rpcrdma.backchannel", 6), Map.entry("io.rpcrdma.service", 6), Map.entry("io.rpcrdma.discovery", 6));

	/** The requester role of one transport: its connection and the parts it is made of. */
	private static final List<String> REQUESTER = List.of("RpcRdmaClientConnection", "CallMarshaller",
			"ReplyUnmarshaller", "VersionNegotiation", "OutstandingCalls", "PendingCall", "BackwardCallReceiver",
			"BackwardCall");

	/** The responder role of one transport: its connection and the parts it is made of. */
	private static final List<String> RESPONDER = List.of("RpcRdmaServerConnection", "CallContext", "DoneWait",
			"ReadChunkPuller", "ReplyMarshaller", "BackwardCalls");

	/** The two connection roles of one transport: each stands on the endpoint, not on the other. */
	private static final Map<String, List<String>> ROLES = roles();

	private LayerRules() {
	}

	/** The layering rules' breaches among rpcrdma-core's sources. */
	static List<Violation> layering(List<JavaSource> core) {
		List<Violation> found = new ArrayList<>();
		for (JavaSource source : core) {
			String from = source.packageName();
			for (String type : source.references()) {
				String to = JavaSource.packageOf(type);
				if (!within(from, "io.rpcrdma.verbs") && PROVIDER_PACKAGES.stream().anyMatch((p) -> within(to, p))) {
					found.add(new Violation(PROVIDER_HELPERS, source.className(), type));
				}
				if (within(from, "io.rpcrdma.service") && within(to, "io.rpcrdma.verbs")) {
					found.add(new Violation(SERVICE_VERBS, source.className(), type));
				}
				if (within(from, "io.rpcrdma.client") && within(to, "io.rpcrdma.server")) {
					found.add(new Violation(CLIENT_SERVER, source.className(), type));
				}
				if (within(from, "io.rpcrdma.server") && within(to, "io.rpcrdma.client")) {
					found.add(new Violation(SERVER_CLIENT, source.className(), type));
				}
				Integer fromHeight = height(from);
				Integer toHeight = height(to);
				if (fromHeight != null && toHeight != null && toHeight > fromHeight) {
					found.add(new Violation(UPWARD, source.className(), type));
				}
			}
			for (String otherRole : ROLES.getOrDefault(source.className(), List.of())) {
				if (source.mentions(otherRole)) {
					found.add(new Violation(SIDEWAYS, source.className(), "io.rpcrdma.transport." + otherRole));
				}
			}
			if (source.code().contains("org.springframework")) {
				found.add(new Violation(SPRING_IN_CORE, source.className(), "org.springframework"));
			}
		}
		return found;
	}

	private static Map<String, List<String>> roles() {
		Map<String, List<String>> roles = new HashMap<>();
		REQUESTER.forEach((name) -> roles.put("io.rpcrdma.transport." + name, RESPONDER));
		RESPONDER.forEach((name) -> roles.put("io.rpcrdma.transport." + name, REQUESTER));
		return roles;
	}

	/** Project types named fully qualified in code, where an import would show the dependency. */
	static List<Violation> qualifiedNames(List<JavaSource> sources) {
		List<Violation> found = new ArrayList<>();
		for (JavaSource source : sources) {
			Set<String> named = source.qualified();
			for (String type : named) {
				found.add(new Violation(QUALIFIED_NAME, source.className(), type));
			}
		}
		return found;
	}

	static boolean within(String packageName, String prefix) {
		return packageName.equals(prefix) || packageName.startsWith(prefix + ".");
	}

	private static Integer height(String packageName) {
		for (Map.Entry<String, Integer> layer : HEIGHTS.entrySet()) {
			if (within(packageName, layer.getKey())) {
				return layer.getValue();
			}
		}
		return null;
	}

}
