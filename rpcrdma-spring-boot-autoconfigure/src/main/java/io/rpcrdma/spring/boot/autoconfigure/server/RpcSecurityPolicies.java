package io.rpcrdma.spring.boot.autoconfigure.server;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.GssContextLimits;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.service.ExportedService;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;

/**
 * Builds the server's {@link SecurityPolicy} from {@code rpcrdma.server.security.*} and the
 * services exported: service entries are matched by exported name, procedure entries by
 * method name, and an entry that matches nothing fails the start rather than leaving a
 * service open that its author meant to close.
 */
final class RpcSecurityPolicies {

	private RpcSecurityPolicies() {
	}

	/**
	 * @param security the properties
	 * @param services what the server exports
	 * @return the policy; {@link SecurityPolicy#permitAll()} when nothing is configured
	 * @throws IllegalStateException if an entry names no exported service or method
	 */
	static SecurityPolicy from(RpcRdmaProperties.ServerSecurity security, List<ExportedService> services) {
		SecurityPolicy.Builder policy = SecurityPolicy.builder();
		RpcRdmaProperties.ServerKerberos kerberos = security.getKerberos();
		if (kerberos.isConfigured()) {
			// The keytab login happens here: a missing keytab or a stale key stops the start.
			policy.rpcsecGss(new RpcSecGssServer(
					KerberosCredentials.acceptorFromKeytab(kerberos.getPrincipal(), Path.of(kerberos.getKeytab())),
					RpcSecGssServer.DEFAULT_WINDOW, limits(kerberos.getContexts())));
		}
		if (!security.getFlavors().isEmpty()) {
			policy.byDefault(flavors(security.getFlavors()));
		}
		for (Map.Entry<String, RpcRdmaProperties.ServiceSecurity> entry : security.getServices().entrySet()) {
			ExportedService service = services.stream()
				.filter((exported) -> exported.descriptor().name().equals(entry.getKey()))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("rpcrdma.server.security.services." + entry.getKey()
						+ " names no exported service; the services are "
						+ services.stream().map((exported) -> exported.descriptor().name()).toList()));
			int program = service.descriptor().program();
			int version = service.descriptor().version();
			if (!entry.getValue().getFlavors().isEmpty()) {
				policy.program(program, flavors(entry.getValue().getFlavors()));
			}
			for (Map.Entry<String, List<String>> procedure : entry.getValue().getProcedures().entrySet()) {
				ProcedureDescriptor descriptor = service.descriptor()
					.procedures()
					.stream()
					.filter((candidate) -> candidate.name().equals(procedure.getKey())
							|| candidate.method().getName().equals(procedure.getKey()))
					.findFirst()
					.orElseThrow(() -> new IllegalStateException("rpcrdma.server.security.services." + entry.getKey()
							+ ".procedures." + procedure.getKey() + " names no procedure of " + entry.getKey()
							+ "; its procedures are " + service.descriptor()
								.procedures()
								.stream()
								.map((candidate) -> candidate.method().getName())
								.collect(Collectors.toList())));
				policy.procedure(program, version, descriptor.number(), flavors(procedure.getValue()));
			}
		}
		return policy.build();
	}

	/** {@code rpcrdma.server.security.kerberos.contexts.*}, validated already. */
	static GssContextLimits limits(RpcRdmaProperties.GssContexts contexts) {
		return new GssContextLimits(contexts.getMax(), contexts.getPerConnection(), contexts.getPerPrincipal(),
				contexts.getCreationTimeout(), contexts.getIdleLimit());
	}

	private static Set<SecurityFlavor> flavors(List<String> names) {
		EnumSet<SecurityFlavor> flavors = EnumSet.noneOf(SecurityFlavor.class);
		for (String name : names) {
			flavors.add(SecurityFlavor.of(name));
		}
		return flavors;
	}

}
