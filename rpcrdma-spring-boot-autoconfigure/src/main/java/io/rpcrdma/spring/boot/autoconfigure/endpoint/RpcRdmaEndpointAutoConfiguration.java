package io.rpcrdma.spring.boot.autoconfigure.endpoint;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntimeAutoConfiguration;

/**
 * The {@code rpcrdma} actuator endpoint, when actuator is present and the endpoint is
 * available (accessible and exposed: {@code management.endpoints.web.exposure.include=rpcrdma}).
 */
@AutoConfiguration(after = RpcRdmaRuntimeAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(RpcRdmaRuntime.class)
public final class RpcRdmaEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	RpcRdmaManagementEndpoint rpcrdmaManagementEndpoint(RpcRdmaRuntime runtime) {
		return new RpcRdmaManagementEndpoint(runtime);
	}

}
