package io.rpcrdma.spring.boot.client;

import io.rpcrdma.client.balance.InstanceSource;

/**
 * Looks up the servers of a client whose address is {@code discovery:///<service-id>}. The
 * Spring Cloud integration provides one when a {@code DiscoveryClient} is on the class path;
 * kept free of Spring Cloud types so that {@link RpcClientFactory} loads without it.
 */
@FunctionalInterface
public interface RpcClientDiscovery {

	/**
	 * @param clientName the client name, for messages
	 * @param serviceId the service id to look up
	 * @return the instances registered under it, read on the client's first call and again
	 * whenever the source says they changed
	 */
	InstanceSource instances(String clientName, String serviceId);

}
