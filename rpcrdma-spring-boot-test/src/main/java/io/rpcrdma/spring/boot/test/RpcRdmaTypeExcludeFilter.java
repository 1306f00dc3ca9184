package io.rpcrdma.spring.boot.test;

import java.io.IOException;
import java.util.Set;

import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.provider.MemoryPoolCustomizer;
import io.rpcrdma.spring.boot.autoconfigure.provider.RdmaProviderCustomizer;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcServerCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientCustomizer;

import org.springframework.boot.test.context.filter.annotation.StandardAnnotationCustomizableTypeExcludeFilter;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;

/**
 * What component scanning finds in an {@link RpcRdmaTest @RpcRdmaTest}: the
 * {@link RpcService @RpcService} beans (only the listed ones if
 * {@link RpcRdmaTest#services()} is set) and the rpcrdma customizers.
 */
final class RpcRdmaTypeExcludeFilter extends StandardAnnotationCustomizableTypeExcludeFilter<RpcRdmaTest> {

	private static final Set<Class<?>> CUSTOMIZERS = Set.of(RdmaProviderCustomizer.class, MemoryPoolCustomizer.class,
			RpcServerCustomizer.class, RpcClientCustomizer.class);

	private final Set<Class<?>> services;

	RpcRdmaTypeExcludeFilter(Class<?> testClass) {
		super(testClass);
		this.services = getAnnotation().isPresent() ? Set.of(getAnnotation().getClassArray("services")) : Set.of();
	}

	@Override
	protected Set<Class<?>> getKnownIncludes() {
		if (this.services.isEmpty()) {
			Set<Class<?>> includes = new java.util.HashSet<>(CUSTOMIZERS);
			includes.add(RpcService.class);
			return includes;
		}
		return CUSTOMIZERS;
	}

	@Override
	protected Set<Class<?>> getComponentIncludes() {
		return this.services;
	}

	@Override
	protected boolean defaultInclude(MetadataReader metadataReader, MetadataReaderFactory metadataReaderFactory)
			throws IOException {
		for (Class<?> service : this.services) {
			if (isTypeOrAnnotated(metadataReader, metadataReaderFactory, service)) {
				return true;
			}
		}
		return super.defaultInclude(metadataReader, metadataReaderFactory);
	}

}
