package io.rpcrdma.spring.boot;

import java.util.Map;

import io.rpcrdma.backchannel.CallbackServices;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;

/**
 * Exports the {@link RpcCallbackService @RpcCallbackService} beans into the
 * {@link CallbackServices} once every singleton exists, so a callback bean may itself depend
 * on client proxies.
 */
public final class RpcCallbackServiceExporter implements SmartInitializingSingleton, ApplicationContextAware {

	private final ObjectProvider<CallbackServices> callbacks;

	private final ObjectProvider<ServiceIntrospector> introspector;

	private final ObjectProvider<ServiceCallObserver> observer;

	private ListableBeanFactory beans;

	/**
	 * @param callbacks the backward-direction programs the exported beans join
	 * @param introspector reads each bean's {@code @RpcProgram} interfaces
	 * @param observer watches the calls, if the application has one
	 */
	public RpcCallbackServiceExporter(ObjectProvider<CallbackServices> callbacks, ObjectProvider<ServiceIntrospector> introspector,
			ObjectProvider<ServiceCallObserver> observer) {
		this.callbacks = callbacks;
		this.introspector = introspector;
		this.observer = observer;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) throws BeansException {
		this.beans = context;
	}

	@Override
	public void afterSingletonsInstantiated() {
		CallbackServices services = this.callbacks.getObject();
		ServiceExporter exporter = new ServiceExporter(this.introspector.getObject(), services.programs(),
				this.observer.getIfAvailable(() -> ServiceCallObserver.NONE));
		for (Map.Entry<String, Object> bean : this.beans.getBeansWithAnnotation(RpcCallbackService.class).entrySet()) {
			exporter.export(bean.getValue());
		}
	}

}
