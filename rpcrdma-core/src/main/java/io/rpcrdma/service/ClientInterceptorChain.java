package io.rpcrdma.service;

import java.util.List;
import java.util.Objects;

import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;

/**
 * One proxy call passing through its {@link RpcClientInterceptor}s, then made by its
 * {@link ProcedureCaller}. Created only for proxies that have interceptors.
 */
final class ClientInterceptorChain extends InterceptorChain<RpcClientInterceptor> implements ClientInvocation {

	private final ProcedureCaller procedure;

	private final Object[] arguments;

	private OpaqueAuth credential = AuthNone.INSTANCE;

	ClientInterceptorChain(List<RpcClientInterceptor> interceptors, ProcedureCaller procedure, Object[] arguments) {
		super(interceptors);
		this.procedure = procedure;
		this.arguments = (arguments != null) ? arguments : new Object[0];
	}

	@Override
	public ServiceDescriptor service() {
		return this.procedure.service();
	}

	@Override
	public ProcedureDescriptor procedure() {
		return this.procedure.procedure();
	}

	@Override
	public Object[] arguments() {
		return this.arguments;
	}

	@Override
	public String endpoint() {
		return this.procedure.endpoint();
	}

	@Override
	public OpaqueAuth credential() {
		return this.credential;
	}

	@Override
	public void credential(OpaqueAuth value) {
		this.credential = Objects.requireNonNull(value, "credential");
	}

	@Override
	Object intercept(RpcClientInterceptor interceptor) throws Throwable {
		return interceptor.intercept(this);
	}

	@Override
	Object call() throws Throwable {
		return this.procedure.procedure().returnsFuture() ? this.procedure.call(this.arguments, this.credential)
				: this.procedure.callAndWait(this.arguments, this.credential);
	}

}
