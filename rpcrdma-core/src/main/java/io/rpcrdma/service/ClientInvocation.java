package io.rpcrdma.service;

import java.util.Map;

import io.rpcrdma.oncrpc.OpaqueAuth;

/**
 * One call of a service proxy as its {@link RpcClientInterceptor}s see it.
 */
public interface ClientInvocation {

	/**
	 * The service called.
	 * @return its descriptor
	 */
	ServiceDescriptor service();

	/**
	 * The procedure called.
	 * @return its descriptor (method, number, parameters)
	 */
	ProcedureDescriptor procedure();

	/**
	 * The arguments, one per parameter; an interceptor may replace elements.
	 * @return the array the call will encode
	 */
	Object[] arguments();

	/**
	 * Where the call goes.
	 * @return the endpoint's description
	 */
	String endpoint();

	/**
	 * The credential the call will carry (RFC 5531 §8.2); AUTH_NONE unless an interceptor set
	 * another.
	 * @return the credential
	 */
	OpaqueAuth credential();

	/**
	 * Sets the credential the call will carry, for example an {@link io.rpcrdma.oncrpc.AuthSys}
	 * or a {@link io.rpcrdma.oncrpc.RawAuth} holding a token.
	 * @param credential the credential, at most 400 bytes of body (RFC 5531 §8.2)
	 */
	void credential(OpaqueAuth credential);

	/**
	 * Values the interceptors of this call share (a start time, a span); they are not sent.
	 * @return the call's attributes
	 */
	Map<String, Object> attributes();

	/**
	 * Passes the call to the next interceptor, or makes it.
	 * @return the method's result (for a future-returning method, the future)
	 * @throws Throwable what the call failed with
	 */
	Object proceed() throws Throwable;

}
