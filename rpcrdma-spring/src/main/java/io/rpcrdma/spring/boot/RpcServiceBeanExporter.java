package io.rpcrdma.spring.boot;

import java.lang.System.Logger.Level;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.rpcrdma.service.ExportedService;
import io.rpcrdma.service.ServiceDefinitionException;
import io.rpcrdma.service.ServiceExportException;
import io.rpcrdma.service.ServiceExporter;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Exports every {@link RpcService @RpcService} bean through the {@link ServiceExporter} once
 * the context has created its singletons, before the server starts listening. A bean that
 * cannot be exported fails start-up with {@link RpcServiceExportFailedException}, naming the
 * bean and, for a conflict, the bean already serving that program version.
 */
public final class RpcServiceBeanExporter implements SmartInitializingSingleton {

	private static final System.Logger logger = System.getLogger(RpcServiceBeanExporter.class.getName());

	private final ListableBeanFactory beanFactory;

	private final ServiceExporter exporter;

	/**
	 * @param beanFactory where the {@code @RpcService} beans are
	 * @param exporter what serves them
	 */
	public RpcServiceBeanExporter(ListableBeanFactory beanFactory, ServiceExporter exporter) {
		this.beanFactory = beanFactory;
		this.exporter = exporter;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Map<Object, String> beanNames = new IdentityHashMap<>();
		for (String beanName : this.beanFactory.getBeanNamesForAnnotation(RpcService.class)) {
			Object bean = this.beanFactory.getBean(beanName);
			if (beanNames.containsKey(bean)) {
				continue;
			}
			try {
				List<ExportedService> exported = this.exporter.export(bean);
				beanNames.put(bean, beanName);
				logger.log(Level.INFO, () -> "@RpcService bean '" + beanName + "' serves " + exported);
			}
			catch (ServiceExportException ex) {
				throw new RpcServiceExportFailedException(beanName, "Cannot serve @RpcService bean '" + beanName + "': "
						+ ex.getMessage() + alreadyServing(beanNames), ex);
			}
			catch (ServiceDefinitionException ex) {
				throw new RpcServiceExportFailedException(beanName,
						"Cannot serve @RpcService bean '" + beanName + "', its service interface is invalid: " + ex.getMessage(), ex);
			}
		}
	}

	private String alreadyServing(Map<Object, String> beanNames) {
		if (beanNames.isEmpty()) {
			return "";
		}
		StringBuilder message = new StringBuilder(" (beans already served: ");
		for (ExportedService service : this.exporter.exported()) {
			String other = beanNames.get(service.implementation());
			if (other != null) {
				message.append("'").append(other).append("' serves ").append(service).append("; ");
			}
		}
		message.setLength(message.length() - 2);
		return message.append(")").toString();
	}

}
