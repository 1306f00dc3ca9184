package io.rpcrdma.service;

import java.util.Map;

import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.server.security.RpcPrincipal;

/**
 * One call an exported service receives, as its {@link RpcServerInterceptor}s see it.
 */
public interface ServerInvocation {

	/**
	 * The service called.
	 * @return its descriptor
	 */
	ServiceDescriptor service();

	/**
	 * The procedure called.
	 * @return its descriptor
	 */
	ProcedureDescriptor procedure();

	/**
	 * The decoded arguments; an interceptor may replace elements.
	 * @return the array the method will be called with
	 */
	Object[] arguments();

	/**
	 * The credential the call carried (RFC 5531 §8.2).
	 * @return the credential, AUTH_NONE if none
	 */
	OpaqueAuth credential();

	/**
	 * Who sent the call, as its credential tells and the server's security policy admitted:
	 * anonymous for AUTH_NONE, an unverified uid for AUTH_SYS.
	 * @return the caller's principal
	 */
	RpcPrincipal principal();

	/**
	 * Who called.
	 * @return the caller's address, or {@code null} if unknown
	 */
	String caller();

	/**
	 * Values the interceptors of this call share.
	 * @return the call's attributes
	 */
	Map<String, Object> attributes();

	/**
	 * Passes the call to the next interceptor, or runs the method.
	 * @return the method's result (for a future-returning method, the future)
	 * @throws Throwable what the method threw
	 */
	Object proceed() throws Throwable;

}
