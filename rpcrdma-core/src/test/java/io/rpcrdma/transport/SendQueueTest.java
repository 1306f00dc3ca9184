package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.SoftwareProvider;

/** {@link SendQueueTests} on each software provider. */
@ParameterizedClass
@EnumSource(SoftwareProvider.class)
class SendQueueTest extends SendQueueTests {

	@Parameter
	SoftwareProvider provider;

	@Override
	protected RdmaProvider openProvider() {
		return this.provider.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return this.provider.listenAddress("transport-send-queue");
	}

}
