package io.rpcrdma.spring.boot.autoconfigure;

import io.rpcrdma.spring.boot.autoconfigure.client.RpcRdmaClientAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.export.RpcRdmaServiceExportAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.service.RpcRdmaServiceAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A context runner with every rpcrdma auto-configuration, on the loopback provider.
 */
public final class RpcRdmaAutoConfigurations {

	private RpcRdmaAutoConfigurations() {
	}

	/** @return a runner over loopback with a host name of its own */
	public static ApplicationContextRunner runner(String host) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RpcRdmaProviderAutoConfiguration.class,
					RpcRdmaServiceAutoConfiguration.class, RpcRdmaServiceExportAutoConfiguration.class,
					RpcRdmaServerAutoConfiguration.class,
					io.rpcrdma.spring.boot.autoconfigure.backchannel.RpcRdmaBackchannelAutoConfiguration.class,
					RpcRdmaClientAutoConfiguration.class))
			.withPropertyValues("rpcrdma.provider=loopback", "rpcrdma.server.address=" + host, "rpcrdma.server.port=0");
	}

}
