package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.SoftwareProvider;

/** {@link Rfc5666CompatibilityTests} on each software provider. */
@ParameterizedClass
@EnumSource(SoftwareProvider.class)
class Rfc5666CompatibilityTest extends Rfc5666CompatibilityTests {

	@Parameter
	SoftwareProvider provider;

	@Override
	protected RdmaProvider openProvider() {
		return this.provider.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return this.provider.listenAddress("transport-rfc5666compatibility");
	}

}
