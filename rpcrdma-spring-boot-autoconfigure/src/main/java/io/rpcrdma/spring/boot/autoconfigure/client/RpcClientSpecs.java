package io.rpcrdma.spring.boot.autoconfigure.client;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.rpcrdma.client.Backoff;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.client.balance.Ejection;
import io.rpcrdma.client.security.RpcSecGssClient;
import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.service.CredentialInterceptor;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAddress;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaTransportConfigs;
import io.rpcrdma.spring.boot.client.RpcCallerSecurity;
import io.rpcrdma.spring.boot.client.RpcClientCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientSpec;
import io.rpcrdma.transport.TransportConfig;

/**
 * Builds a named client's settings from {@code rpcrdma.client.<name>.*} (the defaults for a
 * name that is not configured) and {@code rpcrdma.ddp.*}, then applies the
 * {@link RpcClientCustomizer}s. Every client gets the application's {@link RpcClientInterceptor}
 * beans, in their order; a customizer may add or remove some for one client.
 */
final class RpcClientSpecs implements Function<String, RpcClientSpec> {

	/** Reconnect and retry delays: RpcClientPool.Config.of's, 10 ms growing to 5 s. */
	private static final Backoff BACKOFF = Backoff.exponential(Duration.ofMillis(10), Duration.ofSeconds(5));

	private final RpcRdmaProperties properties;

	private final String providerName;

	private final List<RpcClientCustomizer> customizers;

	private final List<RpcClientInterceptor> interceptors;

	RpcClientSpecs(RpcRdmaProperties properties, String providerName, List<RpcClientCustomizer> customizers,
			List<RpcClientInterceptor> interceptors) {
		this.properties = properties;
		this.providerName = providerName;
		this.customizers = customizers;
		this.interceptors = interceptors;
	}

	@Override
	public RpcClientSpec apply(String name) {
		RpcRdmaProperties.Client client = this.properties.getClient().getOrDefault(name, new RpcRdmaProperties.Client());
		List<InetSocketAddress> addresses = new ArrayList<>();
		String serviceId = null;
		List<InetSocketAddress> rpcbinds = new ArrayList<>();
		for (String address : client.getAddress()) {
			// The validator has made sure a discovery:/// address stands alone.
			if (address.trim().startsWith(RpcClientSpec.DISCOVERY_PREFIX)) {
				serviceId = address.trim().substring(RpcClientSpec.DISCOVERY_PREFIX.length());
			}
			else if (RpcRdmaAddress.isRpcbind(address)) {
				// rpcbind is reached over TCP whatever the provider, so its host is resolved.
				RpcRdmaAddress rpcbind = RpcRdmaAddress.parseRpcbind(address);
				rpcbinds.add(new InetSocketAddress(rpcbind.host(), rpcbind.port()));
			}
			else {
				addresses.add(RpcRdmaAddress.parse(address).toSocketAddress(this.providerName));
			}
		}
		TransportConfig transport = RpcRdmaTransportConfigs.of(client.getVersions(), client.getInlineThresholdV1(),
				client.getInlineThresholdV2(), client.getCredits(), TransportConfig.DEFAULT_CREDITS,
				client.getConnectTimeout());
		transport = transport.withPeerLimits(transport.peerLimits().withOperationTimeout(client.getOperationTimeout()));
		RpcClientPool.Config pool = new RpcClientPool.Config(client.getMinConnections(), client.getMaxConnections(),
				client.getMaxWaiting(), BACKOFF, new RetryPolicy(client.getRetries() + 1, BACKOFF))
			.withUnansweredTimeouts(client.getUnansweredTimeouts())
			.withCallsPerConnection(client.getCallsPerConnection());
		ServiceClientOptions options = new ServiceClientOptions(client.getCallTimeout(),
				(int) client.getMaxReplySize().toBytes(), (int) this.properties.getDdp().getChunkThreshold().toBytes(),
				withCredential(client.getSecurity(), this.interceptors));
		RpcRdmaProperties.ClientEjection ejection = client.getEjection();
		BalancedCaller.Config balancing = new BalancedCaller.Config(client.getBalancer(),
				new Ejection(ejection.getConsecutiveFailures(),
						Backoff.exponential(ejection.getProbeInterval(), ejection.getMaxProbeInterval()),
						ejection.getProbeTimeout()),
				pool.retry());
		RpcClientSpec spec = new RpcClientSpec(name, addresses, transport, client.getMaxPending(), pool, options,
				security(client.getSecurity(), client.getCallTimeout()), balancing, serviceId,
				rpcbinds);
		for (RpcClientCustomizer customizer : this.customizers) {
			spec = customizer.customize(spec);
		}
		return spec;
	}

	/**
	 * The interceptors, behind one that sets the configured credential when it is not AUTH_NONE:
	 * outermost, so an application interceptor may still replace it for a call.
	 */
	static List<RpcClientInterceptor> withCredential(RpcRdmaProperties.ClientSecurity security,
			List<RpcClientInterceptor> interceptors) {
		if (SecurityFlavor.of(security.getFlavor()) != SecurityFlavor.SYS) {
			return interceptors;
		}
		List<RpcClientInterceptor> all = new ArrayList<>(interceptors.size() + 1);
		all.add(CredentialInterceptor.authSys(authSys(security)));
		all.addAll(interceptors);
		return all;
	}

	/**
	 * RPCSEC_GSS for a client whose flavor is krb5, krb5i or krb5p: one context per connection,
	 * created by the connection's first call (a server binds a context to its connection). The Kerberos login happens here, so a missing keytab or a KDC that refuses
	 * the principal stops the start with what to fix.
	 */
	static RpcCallerSecurity security(RpcRdmaProperties.ClientSecurity security, Duration timeout) {
		GssService protection = switch (SecurityFlavor.of(security.getFlavor())) {
			case KRB5 -> GssService.NONE;
			case KRB5I -> GssService.INTEGRITY;
			case KRB5P -> GssService.PRIVACY;
			default -> null;
		};
		if (protection == null) {
			return RpcCallerSecurity.NONE;
		}
		RpcRdmaProperties.ClientKerberos kerberos = security.getKerberos();
		KerberosCredentials login = (kerberos.getKeytab() != null)
				? KerberosCredentials.initiatorFromKeytab(kerberos.getPrincipal(), Path.of(kerberos.getKeytab()))
				: KerberosCredentials.initiatorFromTicketCache(kerberos.getPrincipal(), Path.of(kerberos.getTicketCache()));
		String service = kerberos.getService();
		return (connection) -> RpcSecGssClient.onFirstCall(connection, login, service, protection, timeout);
	}

	/** The configured AUTH_SYS identity, this process's for what is not configured. */
	static AuthSys authSys(RpcRdmaProperties.ClientSecurity security) {
		boolean complete = security.getUid() != null && security.getGid() != null && security.getGids() != null
				&& security.getMachineName() != null;
		AuthSys process = complete ? null : CredentialInterceptor.processCredential();
		int uid = (security.getUid() != null) ? security.getUid().intValue() : process.uid();
		int gid = (security.getGid() != null) ? security.getGid().intValue() : process.gid();
		int[] gids;
		if (security.getGids() != null) {
			gids = new int[security.getGids().size()];
			for (int i = 0; i < gids.length; i++) {
				gids[i] = security.getGids().get(i).intValue();
			}
		}
		else {
			gids = process.gids();
		}
		String machine = (security.getMachineName() != null) ? security.getMachineName() : process.machineName();
		return new AuthSys(0, machine, uid, gid, gids);
	}

}
