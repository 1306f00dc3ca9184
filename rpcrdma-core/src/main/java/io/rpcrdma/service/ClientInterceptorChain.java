package io.rpcrdma.service;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;

/**
 * One proxy call passing through its {@link RpcClientInterceptor}s, then made by its
 * {@link ProcedureCaller}. Created only for proxies that have interceptors.
 */
final class ClientInterceptorChain implements ClientInvocation {

	private final List<RpcClientInterceptor> interceptors;

	private final ProcedureCaller procedure;

	private final Object[] arguments;

	private int next;

	private OpaqueAuth credential = AuthNone.INSTANCE;

	private Map<String, Object> attributes;

	ClientInterceptorChain(List<RpcClientInterceptor> interceptors, ProcedureCaller procedure, Object[] arguments) {
		this.interceptors = interceptors;
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
				// An interceptor may proceed again (a retry): the ones after it run again too.
				this.next = index;
			}
		}
		return this.procedure.procedure().returnsFuture() ? this.procedure.call(this.arguments, this.credential)
				: this.procedure.callAndWait(this.arguments, this.credential);
	}

}
