package io.rpcrdma.service;

import java.util.List;

import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.server.ServerCall;
import io.rpcrdma.server.security.AnonymousPrincipal;
import io.rpcrdma.server.security.RpcPrincipal;

/**
 * One served call passing through the exporter's {@link RpcServerInterceptor}s, then running
 * the method. Created only when the exporter has interceptors.
 */
final class ServerInterceptorChain extends InterceptorChain<RpcServerInterceptor> implements ServerInvocation {

	private final ServiceInvoker invoker;

	private final ProcedureDescriptor procedure;

	private final ServerCall call;

	private final Object[] arguments;

	private final String caller;

	ServerInterceptorChain(List<RpcServerInterceptor> interceptors, ServiceInvoker invoker, ProcedureDescriptor procedure,
			ServerCall call, Object[] arguments, String caller) {
		super(interceptors);
		this.invoker = invoker;
		this.procedure = procedure;
		this.call = call;
		this.arguments = arguments;
		this.caller = caller;
	}

	@Override
	public ServiceDescriptor service() {
		return this.invoker.service();
	}

	@Override
	public ProcedureDescriptor procedure() {
		return this.procedure;
	}

	@Override
	public Object[] arguments() {
		return this.arguments;
	}

	@Override
	public OpaqueAuth credential() {
		return (this.call != null) ? this.call.credential() : AuthNone.INSTANCE;
	}

	@Override
	public RpcPrincipal principal() {
		return (this.call != null) ? this.call.principal() : AnonymousPrincipal.INSTANCE;
	}

	@Override
	public String caller() {
		return this.caller;
	}

	@Override
	Object intercept(RpcServerInterceptor interceptor) throws Throwable {
		return interceptor.intercept(this);
	}

	@Override
	Object call() throws Throwable {
		if (this.procedure.returnsFuture()) {
			return this.invoker.invoke(this.procedure, this.arguments);
		}
		return this.invoker.handle(this.procedure, this.arguments).invoke(this.arguments);
	}

}
