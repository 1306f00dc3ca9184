package io.rpcrdma.service;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

import io.rpcrdma.client.RpcCaller;

/**
 * The invocation handler behind a service proxy. Remote methods go through their
 * {@link ProcedureCaller}: an asynchronous method returns the call's future, a synchronous one
 * waits for it and throws what it failed with (the rethrown fault, or an
 * {@link io.rpcrdma.client.RpcCallException} naming the service, method and endpoint).
 * {@code default} methods run locally on the proxy, so they may call remote methods;
 * {@code equals}, {@code hashCode} and {@code toString} are the proxy's own.
 */
final class ServiceProxy implements InvocationHandler {

	private final ServiceDescriptor service;

	private final RpcCaller caller;

	private final Map<Method, ProcedureCaller> procedures;

	private final List<RpcClientInterceptor> interceptors;

	ServiceProxy(ServiceDescriptor service, RpcCaller caller, Map<Method, ProcedureCaller> procedures,
			List<RpcClientInterceptor> interceptors) {
		this.service = service;
		this.caller = caller;
		this.procedures = Map.copyOf(procedures);
		this.interceptors = List.copyOf(interceptors);
	}

	@Override
	public Object invoke(Object proxy, Method method, Object[] arguments) throws Throwable {
		ProcedureCaller procedure = this.procedures.get(method);
		if (procedure == null) {
			return local(proxy, method, arguments);
		}
		if (this.interceptors.isEmpty() && procedure.procedure().returnsFuture()) {
			return procedure.call(arguments);
		}
		try {
			if (!this.interceptors.isEmpty()) {
				return new ClientInterceptorChain(this.interceptors, procedure, arguments).proceed();
			}
			return procedure.callAndWait(arguments);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			CancellationException cancelled = new CancellationException(
					"Interrupted while waiting for " + procedure.name() + " at " + this.caller.endpoint()
							+ "; the call may still run on the server");
			cancelled.initCause(ex);
			throw cancelled;
		}
		catch (Throwable failure) {
			throw rethrowable(failure, method);
		}
	}

	private Object local(Object proxy, Method method, Object[] arguments) throws Throwable {
		if (method.getDeclaringClass() == Object.class) {
			return switch (method.getName()) {
				case "equals" -> proxy == arguments[0];
				case "hashCode" -> System.identityHashCode(proxy);
				case "toString" -> toString();
				default -> throw new UnsupportedOperationException(method + " is not supported on a service proxy");
			};
		}
		if (method.isDefault()) {
			return InvocationHandler.invokeDefault(proxy, method, arguments);
		}
		throw new UnsupportedOperationException(method + " is not a remote procedure of " + this.service);
	}

	/** The failure as the method may throw it: unchecked, or checked and declared. */
	private static Throwable rethrowable(Throwable failure, Method method) {
		if (failure instanceof RuntimeException || failure instanceof Error) {
			return failure;
		}
		for (Class<?> declared : method.getExceptionTypes()) {
			if (declared.isInstance(failure)) {
				return failure;
			}
		}
		return new UndeclaredThrowableException(failure);
	}

	@Override
	public String toString() {
		return this.service.name() + " client for " + this.caller.endpoint() + " (program "
				+ ProgramNumbers.hex(this.service.program()) + " version " + Integer.toUnsignedString(this.service.version()) + ")";
	}

}
