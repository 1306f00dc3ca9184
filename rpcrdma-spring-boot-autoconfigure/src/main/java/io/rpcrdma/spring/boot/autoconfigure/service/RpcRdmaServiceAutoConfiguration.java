package io.rpcrdma.spring.boot.autoconfigure.service;

import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the service binding shared by exported services and client proxies:
 * the XDR {@link CodecRegistry} (declare one to plug in codecs of your own) and the
 * {@link ServiceIntrospector} that turns interfaces into ONC RPC programs.
 */
@AutoConfiguration
@ConditionalOnClass(ServiceIntrospector.class)
public final class RpcRdmaServiceAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CodecRegistry rpcRdmaCodecRegistry() {
		return CodecRegistry.standard();
	}

	@Bean
	@ConditionalOnMissingBean
	ServiceIntrospector rpcRdmaServiceIntrospector(CodecRegistry rpcRdmaCodecRegistry) {
		return new ServiceIntrospector(rpcRdmaCodecRegistry);
	}

}
