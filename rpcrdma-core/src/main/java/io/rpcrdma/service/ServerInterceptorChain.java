package io.rpcrdma.service;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.server.ServerCall;

/**
 * One served call passing through the exporter's {@link RpcServerInterceptor}s, then running
 * the method. Created only when the exporter has interceptors.
 */
final class ServerInterceptorChain implements ServerInvocation {

	private final List<RpcServerInterceptor> interceptors;

	private final ServiceInvoker invoker;

	private final ProcedureDescriptor procedure;

	private final ServerCall call;

	private final Object[] arguments;

	private final String caller;

	private int next;

	private Map<String, Object> attributes;

	ServerInterceptorChain(List<RpcServerInterceptor> interceptors, ServiceInvoker invoker, ProcedureDescriptor procedure,
			ServerCall call, Object[] arguments, String caller) {
		this.interceptors = interceptors;
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
	public String caller() {
		return this.caller;
	}

	@Override
	public Map<String, Object> attributes() {
		if (this.attributes == null) {
			this.attributes = new HashMap<>();
		}
		return this.attributes;
	}

	@Override
	public Object proceed() throws Throwable {
		int index = this.next;
		if (index < this.interceptors.size()) {
			this.next = index + 1;
			try {
				return this.interceptors.get(index).intercept(this);
			}
			finally {
				this.next = index;
			}
		}
		if (this.procedure.returnsFuture()) {
			return this.invoker.invoke(this.procedure, this.arguments);
		}
		return this.invoker.handle(this.procedure, this.arguments).invoke(this.arguments);
	}

}
