package io.rpcrdma.service;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.rpcrdma.backchannel.Backchannels;
import io.rpcrdma.client.RpcCaller;

/**
 * Creates client proxies for service interfaces: calling a method of the proxy calls the
 * procedure on the server behind an {@link RpcCaller} (usually an
 * {@link io.rpcrdma.client.RpcClientPool}). Interfaces are bound once per factory and their
 * codecs built then; proxies are cheap and thread-safe.
 */
public final class ServiceClientFactory {

	private final ServiceIntrospector introspector;

	private final ServiceCallObserver observer;

	private final Map<Class<?>, ServiceDescriptor> descriptors = new ConcurrentHashMap<>();

	/**
	 * @param introspector binds interfaces
	 */
	public ServiceClientFactory(ServiceIntrospector introspector) {
		this(introspector, ServiceCallObserver.NONE);
	}

	/**
	 * @param introspector binds interfaces
	 * @param observer watches every call made through the proxies
	 */
	public ServiceClientFactory(ServiceIntrospector introspector, ServiceCallObserver observer) {
		this.introspector = Objects.requireNonNull(introspector, "introspector");
		this.observer = Objects.requireNonNull(observer, "observer");
	}

	/**
	 * A proxy with the default options.
	 * @param <T> the interface
	 * @param serviceInterface an interface annotated {@link RpcProgram}
	 * @param caller where calls go
	 * @return the proxy
	 * @throws ServiceDefinitionException if the interface is not a valid service
	 */
	public <T> T create(Class<T> serviceInterface, RpcCaller caller) {
		return create(serviceInterface, caller, ServiceClientOptions.DEFAULTS);
	}

	/**
	 * A proxy of a program the client of the running call serves (RFC 8167, the backward
	 * direction): calls go back on the connection that call came on. For an exported method,
	 * while it runs; the proxy stays usable after it, while the connection lives.
	 * @param <T> the interface
	 * @param callbackInterface an interface annotated {@link RpcProgram}, which the client
	 * serves as {@code CallbackServices}
	 * @return the proxy
	 * @throws IllegalStateException if no call runs on this thread
	 * @throws io.rpcrdma.server.BackwardDirectionUnavailableException if its connection has no
	 * backward direction
	 */
	public <T> T callback(Class<T> callbackInterface) {
		return create(callbackInterface, Backchannels.callerOf(RpcCallContext.current()));
	}

	/**
	 * @param <T> the interface
	 * @param serviceInterface an interface annotated {@link RpcProgram}
	 * @param caller where calls go
	 * @param options deadlines and sizes
	 * @return the proxy
	 * @throws ServiceDefinitionException if the interface is not a valid service
	 */
	public <T> T create(Class<T> serviceInterface, RpcCaller caller, ServiceClientOptions options) {
		Objects.requireNonNull(caller, "caller");
		Objects.requireNonNull(options, "options");
		ServiceDescriptor service = describe(serviceInterface);
		FaultTranslator faults = new FaultTranslator(serviceInterface.getClassLoader());
		Map<Method, ProcedureCaller> procedures = new HashMap<>();
		for (ProcedureDescriptor procedure : service.procedures()) {
			procedures.put(procedure.method(),
					new ProcedureCaller(service, procedure, caller, options, this.observer, faults));
		}
		Object proxy = Proxy.newProxyInstance(serviceInterface.getClassLoader(), new Class<?>[] { serviceInterface },
				new ServiceProxy(service, caller, procedures, options.interceptors()));
		return serviceInterface.cast(proxy);
	}

	/**
	 * @param serviceInterface an interface annotated {@link RpcProgram}
	 * @return its descriptor, bound once per factory
	 */
	public ServiceDescriptor describe(Class<?> serviceInterface) {
		Objects.requireNonNull(serviceInterface, "serviceInterface");
		return this.descriptors.computeIfAbsent(serviceInterface, this.introspector::describe);
	}

}
