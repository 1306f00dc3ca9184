package io.rpcrdma.spring.boot.autoconfigure.security;

import io.rpcrdma.server.RpcServer;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.export.RpcRdmaServiceExportAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Auto-configuration of Spring Security for exported services: with Spring Security on the
 * class path, each call's caller is in the {@code SecurityContext} while its
 * {@code @RpcService} method runs ({@link RpcSecurityContextInterceptor}, outermost of the
 * server interceptors, so later ones see it too).
 */
@AutoConfiguration(before = RpcRdmaServiceExportAutoConfiguration.class)
@ConditionalOnClass({ RpcServer.class, SecurityContextHolder.class })
@EnableConfigurationProperties(RpcRdmaProperties.class)
public final class RpcRdmaSecurityAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	RpcSecurityContextInterceptor rpcSecurityContextInterceptor(RpcRdmaProperties properties) {
		return new RpcSecurityContextInterceptor(properties.getServer().getSecurity().isTrustAuthSys());
	}

}
