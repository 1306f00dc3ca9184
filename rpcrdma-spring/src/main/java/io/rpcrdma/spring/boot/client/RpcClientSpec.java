package io.rpcrdma.spring.boot.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.transport.TransportConfig;

/**
 * Everything a named client needs: where its servers are and how it calls them.
 *
 * @param name the client name ({@code rpcrdma.client.<name>})
 * @param addresses the servers, one connection pool each, balanced as {@code balancing} says;
 * empty for this application's own RPC server
 * @param transport the RPC-over-RDMA settings of each connection
 * @param maxPendingPerConnection the most calls awaiting replies on one connection
 * @param pool the pool settings (connections, reconnect delays); a pool retries nothing
 * itself, the balancing does
 * @param options how proxies call (deadline, reply room, DDP threshold)
 * @param security what protects the calls to each server (RPCSEC_GSS), {@link RpcCallerSecurity#NONE}
 * for nothing beyond the credential
 * @param balancing how calls are spread over the servers, when one is ejected, and how often a
 * failed call is sent again (to another server when there is one)
 * @param serviceId the service id the servers are looked up under in a discovery service
 * ({@code discovery:///<service-id>}), with {@code addresses} empty; {@code null} when the
 * addresses are given
 * @param rpcbinds hosts' rpcbinds ({@code rpcbind://host[:port]}) through which more servers
 * are found, one per host, for each service interface's program version (RFC 5666 §10); empty
 * for none
 */
public record RpcClientSpec(String name, List<InetSocketAddress> addresses, TransportConfig transport,
		int maxPendingPerConnection, RpcClientPool.Config pool, ServiceClientOptions options,
		RpcCallerSecurity security, BalancedCaller.Config balancing, String serviceId,
		List<InetSocketAddress> rpcbinds) {

	/** How a client's address names a discovery service id: {@code discovery:///greeter}. */
	public static final String DISCOVERY_PREFIX = "discovery:///";

	/**
	 * Validates.
	 */
	public RpcClientSpec {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(security, "security");
		addresses = List.copyOf(Objects.requireNonNull(addresses, "addresses"));
		Objects.requireNonNull(transport, "transport");
		Objects.requireNonNull(pool, "pool");
		Objects.requireNonNull(options, "options");
		Objects.requireNonNull(balancing, "balancing");
		if (maxPendingPerConnection < 1) {
			throw new IllegalArgumentException(
					"maxPendingPerConnection of client '" + name + "' must be at least 1, got " + maxPendingPerConnection);
		}
		rpcbinds = List.copyOf(Objects.requireNonNull(rpcbinds, "rpcbinds"));
		if (serviceId != null && (serviceId.isBlank() || !addresses.isEmpty() || !rpcbinds.isEmpty())) {
			throw new IllegalArgumentException("Client '" + name + "' is looked up in a discovery service or given "
					+ "addresses or rpcbinds, not both, and its service id must not be blank; got service id '" + serviceId
					+ "', addresses " + addresses + " and rpcbinds " + rpcbinds);
		}
	}

	/**
	 * Settings with the servers at {@code addresses}, or this application's own when empty.
	 * @param name the client name
	 * @param addresses the servers; empty for this application's own server
	 * @param transport the RPC-over-RDMA settings of each connection
	 * @param maxPendingPerConnection the most calls awaiting replies on one connection
	 * @param pool the pool settings
	 * @param options how proxies call
	 * @param security what protects the calls to each server
	 * @param balancing how calls are spread, ejected and retried
	 */
	public RpcClientSpec(String name, List<InetSocketAddress> addresses, TransportConfig transport,
			int maxPendingPerConnection, RpcClientPool.Config pool, ServiceClientOptions options,
			RpcCallerSecurity security, BalancedCaller.Config balancing) {
		this(name, addresses, transport, maxPendingPerConnection, pool, options, security, balancing, null, List.of());
	}

	/**
	 * Settings balanced round robin with the default ejection, retrying as the pool settings'
	 * retry policy says.
	 * @param name the client name
	 * @param addresses the servers; empty for this application's own server
	 * @param transport the RPC-over-RDMA settings of each connection
	 * @param maxPendingPerConnection the most calls awaiting replies on one connection
	 * @param pool the pool settings
	 * @param options how proxies call
	 * @param security what protects the calls to each server
	 */
	public RpcClientSpec(String name, List<InetSocketAddress> addresses, TransportConfig transport,
			int maxPendingPerConnection, RpcClientPool.Config pool, ServiceClientOptions options,
			RpcCallerSecurity security) {
		this(name, addresses, transport, maxPendingPerConnection, pool, options, security,
				BalancedCaller.Config.defaults().withRetry(Objects.requireNonNull(pool, "pool").retry()));
	}

	/**
	 * Settings without protection beyond the credential.
	 * @param name the client name
	 * @param addresses the servers; empty for this application's own server
	 * @param transport the RPC-over-RDMA settings of each connection
	 * @param maxPendingPerConnection the most calls awaiting replies on one connection
	 * @param pool the pool settings
	 * @param options how proxies call
	 */
	public RpcClientSpec(String name, List<InetSocketAddress> addresses, TransportConfig transport,
			int maxPendingPerConnection, RpcClientPool.Config pool, ServiceClientOptions options) {
		this(name, addresses, transport, maxPendingPerConnection, pool, options, RpcCallerSecurity.NONE);
	}

	/** @return whether the client calls this application's own server */
	public boolean callsLocalServer() {
		return this.addresses.isEmpty() && this.serviceId == null && this.rpcbinds.isEmpty();
	}

	/** @return whether some of the servers are found through rpcbind */
	public boolean usesRpcbind() {
		return !this.rpcbinds.isEmpty();
	}

	/**
	 * @param value the hosts' rpcbinds to find servers through
	 * @return a copy with them
	 */
	public RpcClientSpec withRpcbinds(List<InetSocketAddress> value) {
		return new RpcClientSpec(this.name, this.addresses, this.transport, this.maxPendingPerConnection, this.pool,
				this.options, this.security, this.balancing, this.serviceId, value);
	}

	/** @return whether the servers are looked up in a discovery service under {@link #serviceId()} */
	public boolean discovered() {
		return this.serviceId != null;
	}

	/**
	 * @param value the service id to look the servers up under in a discovery service;
	 * {@code null} to use the addresses
	 * @return a copy with it, and without addresses when it is not {@code null}
	 */
	public RpcClientSpec withServiceId(String value) {
		return new RpcClientSpec(this.name, (value != null) ? List.of() : this.addresses, this.transport,
				this.maxPendingPerConnection, this.pool, this.options, this.security, this.balancing, value,
				(value != null) ? List.of() : this.rpcbinds);
	}

	/**
	 * @param value the servers
	 * @return a copy with them, no longer looked up in a discovery service
	 */
	public RpcClientSpec withAddresses(List<InetSocketAddress> value) {
		return new RpcClientSpec(this.name, value, this.transport, this.maxPendingPerConnection, this.pool,
				this.options, this.security, this.balancing, null, this.rpcbinds);
	}

	/**
	 * @param value the transport settings
	 * @return a copy with them
	 */
	public RpcClientSpec withTransport(TransportConfig value) {
		return new RpcClientSpec(this.name, this.addresses, value, this.maxPendingPerConnection, this.pool,
				this.options, this.security, this.balancing, this.serviceId, this.rpcbinds);
	}

	/**
	 * @param value the pool settings
	 * @return a copy with them
	 */
	public RpcClientSpec withPool(RpcClientPool.Config value) {
		return new RpcClientSpec(this.name, this.addresses, this.transport, this.maxPendingPerConnection, value,
				this.options, this.security, this.balancing, this.serviceId, this.rpcbinds);
	}

	/**
	 * @param value the proxy options
	 * @return a copy with them
	 */
	public RpcClientSpec withOptions(ServiceClientOptions value) {
		return new RpcClientSpec(this.name, this.addresses, this.transport, this.maxPendingPerConnection, this.pool,
				value, this.security, this.balancing, this.serviceId, this.rpcbinds);
	}

	/**
	 * @param value what protects the calls to each server
	 * @return a copy with it
	 */
	public RpcClientSpec withSecurity(RpcCallerSecurity value) {
		return new RpcClientSpec(this.name, this.addresses, this.transport, this.maxPendingPerConnection, this.pool,
				this.options, value, this.balancing, this.serviceId, this.rpcbinds);
	}

	/**
	 * @param value how calls are spread, ejected and retried
	 * @return a copy with it
	 */
	public RpcClientSpec withBalancing(BalancedCaller.Config value) {
		return new RpcClientSpec(this.name, this.addresses, this.transport, this.maxPendingPerConnection, this.pool,
				this.options, this.security, value, this.serviceId, this.rpcbinds);
	}

	/**
	 * These settings with one more interceptor around this client's calls, inside the ones it
	 * has (the application's {@link RpcClientInterceptor} beans).
	 * @param interceptor the interceptor
	 * @return the new settings
	 */
	public RpcClientSpec withInterceptor(RpcClientInterceptor interceptor) {
		List<RpcClientInterceptor> interceptors = new ArrayList<>(this.options.interceptors());
		interceptors.add(interceptor);
		return withOptions(this.options.withInterceptors(interceptors));
	}

}
