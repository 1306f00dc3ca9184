package io.rpcrdma.spring.boot.autoconfigure.export;

import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.spring.boot.RpcServiceBeanExporter;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Makes the rpcrdma-spring exporter the deprecated {@code RpcServiceBeanExporter} of this
 * package delegates to; a separate class because that one cannot import a type of its own
 * simple name.
 */
final class MovedExporter {

	private MovedExporter() {
	}

	static SmartInitializingSingleton of(ListableBeanFactory beanFactory, ServiceExporter exporter) {
		return new RpcServiceBeanExporter(beanFactory, exporter);
	}

}
