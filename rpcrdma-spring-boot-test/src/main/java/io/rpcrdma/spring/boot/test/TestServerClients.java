package io.rpcrdma.spring.boot.test;

import java.util.List;

import io.rpcrdma.spring.boot.client.RpcClientCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientSpec;

import org.springframework.core.Ordered;

/**
 * Points every client of a test context at the context's own server: the addresses,
 * discovery service id and rpcbind hosts of {@code application.yml} name servers of the
 * real deployment, which a test on its test transport (an in-JVM host, any free port)
 * cannot reach and should not call. Applied last, after the application's customizers.
 */
final class TestServerClients implements RpcClientCustomizer, Ordered {

	@Override
	public RpcClientSpec customize(RpcClientSpec spec) {
		return spec.withAddresses(List.of()).withRpcbinds(List.of());
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
