package io.rpcrdma.service;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The arguments of one service call, encoded after the RPC call header (again on each retry),
 * and the name exceptions give the call.
 */
final class ServiceCallBody implements CallBody {

	private final ProcedureDescriptor procedure;

	private final Object[] arguments;

	private final String name;

	ServiceCallBody(ProcedureDescriptor procedure, Object[] arguments, String name) {
		this.procedure = procedure;
		this.arguments = arguments;
		this.name = name;
	}

	@Override
	public void write(XdrEncoder encoder) {
		this.procedure.encodeArguments(this.arguments, encoder);
	}

	@Override
	public String procedureName() {
		return this.name;
	}

}
