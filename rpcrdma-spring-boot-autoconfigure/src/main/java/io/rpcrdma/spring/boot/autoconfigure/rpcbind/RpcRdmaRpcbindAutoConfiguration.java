package io.rpcrdma.spring.boot.autoconfigure.rpcbind;

import io.rpcrdma.discovery.rpcbind.RpcbindRegistration;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAddress;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the server's rpcbind registration: with
 * {@code rpcrdma.server.rpcbind.enabled=true} the exported services are registered with the
 * rpcbind at {@code rpcrdma.server.rpcbind.address} (127.0.0.1:111) under netid rdma or rdma6
 * once the server listens, and unregistered before it stops.
 */
@AutoConfiguration(before = RpcRdmaServerAutoConfiguration.class)
@ConditionalOnClass(RpcbindRegistration.class)
@ConditionalOnBooleanProperty("rpcrdma.server.rpcbind.enabled")
@EnableConfigurationProperties(RpcRdmaProperties.class)
public final class RpcRdmaRpcbindAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RpcbindServerRegistration rpcbindServerRegistration(RpcRdmaProperties properties) {
		RpcRdmaProperties.ServerRpcbind rpcbind = properties.getServer().getRpcbind();
		RpcRdmaAddress address = RpcRdmaAddress.parse(rpcbind.getAddress());
		return new RpcbindServerRegistration(address.toSocketAddress("ip"), address.toString(), rpcbind.getTimeout());
	}

}
