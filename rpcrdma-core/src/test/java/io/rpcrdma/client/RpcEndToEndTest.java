package io.rpcrdma.client;

import java.net.InetSocketAddress;

import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.SoftwareProvider;

/** {@link RpcEndToEndTests} on each software provider. */
@ParameterizedClass
@EnumSource(SoftwareProvider.class)
class RpcEndToEndTest extends RpcEndToEndTests {

	@Parameter
	SoftwareProvider provider;

	@Override
	protected RdmaProvider openProvider() {
		return this.provider.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return this.provider.listenAddress("rpc-end-to-end");
	}

}
