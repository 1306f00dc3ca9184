package io.rpcrdma.service;

import java.util.Set;

/**
 * Acts around each call a service proxy makes, as gRPC's {@code ClientInterceptor} and Dubbo's
 * filters do: sees and changes the arguments and the call's credential (the one piece of
 * metadata ONC RPC carries, RFC 5531 §8.2, for a token, a tenant or a trace id), answers
 * without calling the server (return a value or throw), observes the outcome and its time,
 * or calls {@link ClientInvocation#proceed()} again to retry.
 * <p>
 * Interceptors are given to a proxy in {@link ServiceClientOptions#withInterceptors}; the first
 * in the list is the outermost. A proxy without interceptors allocates nothing for them.
 * Methods returning a {@code CompletableFuture} get the future from {@code proceed()}: an
 * interceptor that wants the outcome attaches to it, it must not wait for it.
 */
@FunctionalInterface
public interface RpcClientInterceptor {

	/**
	 * Acts on one call.
	 * @param invocation the call; {@link ClientInvocation#proceed()} passes it on
	 * @return the method's result (for a future-returning method, the future)
	 * @throws Throwable what the method throws, or what the interceptor decides it throws
	 */
	Object intercept(ClientInvocation invocation) throws Throwable;

	/**
	 * This interceptor, but only for some service interfaces; other calls pass straight on.
	 * @param serviceInterfaces the interfaces it applies to
	 * @return the scoped interceptor
	 */
	default RpcClientInterceptor onlyFor(Class<?>... serviceInterfaces) {
		Set<Class<?>> scope = Set.of(serviceInterfaces);
		RpcClientInterceptor delegate = this;
		return (invocation) -> scope.contains(invocation.service().serviceInterface()) ? delegate.intercept(invocation)
				: invocation.proceed();
	}

}
