package io.rpcrdma.spring.boot.autoconfigure.management;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;

/**
 * What the health indicator, the meters and the {@code rpcrdma} actuator endpoint read from
 * the running RPC-over-RDMA infrastructure: the provider, the registered memory, the server
 * and the client pools. Every method reads the current state (the server may start and stop,
 * pools appear as clients are created), never changes it, and never blocks.
 *
 * <p>The auto-configuration builds one from the starter's own beans; an application that
 * builds its server or pools by hand declares its own bean of this type instead.
 */
public interface RpcRdmaRuntime {

	/** @return the RDMA provider's name ({@code siw}, {@code loopback}, {@code disni}), empty if none */
	Optional<String> providerName();

	/** @return the registered memory the transports lease from, empty if none */
	Optional<RegisteredMemoryPool> memoryPool();

	/**
	 * @return whether the application asked for a server: when it did and none is listening,
	 * the application cannot serve
	 */
	boolean serverEnabled();

	/** @return the listening server, empty before it starts and after it stops */
	Optional<RpcServer> server();

	/** @return the services the server exports (also before it starts) */
	List<ExportedService> exportedServices();

	/**
	 * @return the client pools created so far, by client name; a client with several addresses
	 * has one pool per address, named {@code name[host:port]}
	 */
	Map<String, RpcClientPool> clientPools();

	/**
	 * @return the names of the clients the application configured or created, whether their
	 * pools exist yet or not (pools are created on a client's first call)
	 */
	default Set<String> clientNames() {
		Set<String> names = new TreeSet<>();
		for (String key : clientPools().keySet()) {
			int bracket = key.indexOf('[');
			names.add((bracket > 0) ? key.substring(0, bracket) : key);
		}
		return names;
	}

	/**
	 * @param clientName a client's name
	 * @return the pools of that client: one per address, none before its first call
	 */
	default List<RpcClientPool> clientPools(String clientName) {
		List<RpcClientPool> pools = new ArrayList<>();
		clientPools().forEach((key, pool) -> {
			if (key.equals(clientName) || key.startsWith(clientName + "[")) {
				pools.add(pool);
			}
		});
		return pools;
	}

	/**
	 * @return each client's servers as its {@link BalancedCaller} sees them (state,
	 * outstanding calls, failures), by client name; a client appears once its first call has
	 * read its instances, and a runtime whose clients call no balanced caller has none
	 */
	default Map<String, List<InstanceStats>> clientInstances() {
		return Map.of();
	}

	/**
	 * @param clientName a client's name
	 * @return the attempts of that client's calls sent again after a failed one: its balanced
	 * caller's {@link BalancedCaller#failovers() failovers}, plus the retries of pools that
	 * retry themselves (pools under a balanced caller do not)
	 */
	default long clientRetries(String clientName) {
		return clientPools(clientName).stream().mapToLong(RpcClientPool::retries).sum();
	}

	/**
	 * @return the port the server listens on, -1 when it does not listen
	 */
	default int serverPort() {
		return server().map(RpcServer::localAddress).map(InetSocketAddress::getPort).orElse(-1);
	}

}
