package io.rpcrdma.spring.boot.test;

import java.util.List;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Puts tests annotated {@link AutoConfigureRpcRdma @AutoConfigureRpcRdma} (directly, through
 * {@link RpcRdmaTest @RpcRdmaTest}, or on an enclosing class) on their test transport.
 */
final class RpcRdmaTestContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		MergedAnnotations annotations = MergedAnnotations.search(SearchStrategy.TYPE_HIERARCHY)
			.withEnclosingClasses(TestContextAnnotationUtils::searchEnclosingClass)
			.from(testClass);
		MergedAnnotation<AutoConfigureRpcRdma> transport = annotations.get(AutoConfigureRpcRdma.class);
		if (!transport.isPresent()) {
			return null;
		}
		MergedAnnotation<RpcRdmaTest> slice = annotations.get(RpcRdmaTest.class);
		List<Class<?>> clients = slice.isPresent() ? List.of(slice.getClassArray("clients")) : List.of();
		return new RpcRdmaTestContextCustomizer(transport.getString("provider"), transport.getString("address"), clients);
	}

}
