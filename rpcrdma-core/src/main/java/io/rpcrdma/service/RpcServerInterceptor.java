package io.rpcrdma.service;

import java.util.Set;

/**
 * Acts around each call an exported service receives, as gRPC's {@code ServerInterceptor}
 * does: sees the caller's credential (RFC 5531 §8.2) and the arguments, refuses the call
 * ({@link io.rpcrdma.server.CallRejectedException} answers MSG_DENIED AUTH_ERROR; any other exception goes back as
 * the method's fault would), answers without running the method, or observes the outcome.
 * <p>
 * Interceptors are given to a {@link ServiceExporter}; the first in the list is the outermost.
 * An exporter without interceptors allocates nothing for them. For a method returning a
 * {@code CompletableFuture}, {@code proceed()} returns the future.
 */
@FunctionalInterface
public interface RpcServerInterceptor {

	/**
	 * Acts on one call.
	 * @param invocation the call; {@link ServerInvocation#proceed()} runs the rest
	 * @return the method's result (for a future-returning method, the future)
	 * @throws Throwable what the method threw, or the interceptor's refusal
	 */
	Object intercept(ServerInvocation invocation) throws Throwable;

	/**
	 * This interceptor, but only for some service interfaces; other calls pass straight on.
	 * @param serviceInterfaces the interfaces it applies to
	 * @return the scoped interceptor
	 */
	default RpcServerInterceptor onlyFor(Class<?>... serviceInterfaces) {
		Set<Class<?>> scope = Set.of(serviceInterfaces);
		RpcServerInterceptor delegate = this;
		return (invocation) -> scope.contains(invocation.service().serviceInterface()) ? delegate.intercept(invocation)
				: invocation.proceed();
	}

}
