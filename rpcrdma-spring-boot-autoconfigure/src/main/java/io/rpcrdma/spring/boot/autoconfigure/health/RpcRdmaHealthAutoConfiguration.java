package io.rpcrdma.spring.boot.autoconfigure.health;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntimeAutoConfiguration;

/**
 * The {@code rpcrdma} health contributor, when Spring Boot's health support is present;
 * {@code management.health.rpcrdma.enabled=false} turns it off.
 */
@AutoConfiguration(after = RpcRdmaRuntimeAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(RpcRdmaRuntime.class)
@ConditionalOnEnabledHealthIndicator("rpcrdma")
public final class RpcRdmaHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "rpcrdmaHealthContributor")
	RpcRdmaHealthIndicator rpcrdmaHealthContributor(RpcRdmaRuntime runtime) {
		return new RpcRdmaHealthIndicator(runtime);
	}

}
