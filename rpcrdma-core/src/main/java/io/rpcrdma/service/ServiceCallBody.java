package io.rpcrdma.service;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The arguments of one service call, encoded after the RPC call header (again on each retry),
 * and the name exceptions give the call. An argument whose data the caller holds in a
 * registered buffer ({@link BulkData#of}) is encoded as its XDR length word alone: the
 * transport advertises the buffer itself as its Read chunk (RFC 8166 §3.4.5).
 */
final class ServiceCallBody implements CallBody {

	private final ProcedureDescriptor procedure;

	private final Object[] arguments;

	private final long registeredMask;

	private final String name;

	/**
	 * @param procedure the procedure called
	 * @param arguments one value per parameter
	 * @param registeredMask bit {@code i} set when argument {@code i} travels from its registered buffer
	 * @param name the call's name in exceptions
	 */
	ServiceCallBody(ProcedureDescriptor procedure, Object[] arguments, long registeredMask, String name) {
		this.procedure = procedure;
		this.arguments = arguments;
		this.registeredMask = registeredMask;
		this.name = name;
	}

	@Override
	@SuppressWarnings("unchecked")
	public void write(XdrEncoder encoder) {
		if (this.registeredMask == 0) {
			this.procedure.encodeArguments(this.arguments, encoder);
			return;
		}
		for (int i = 0; i < this.arguments.length; i++) {
			if (i < Long.SIZE && (this.registeredMask & (1L << i)) != 0) {
				encoder.writeInt(((BulkData) this.arguments[i]).length());
			}
			else {
				((XdrCodec<Object>) this.procedure.parameters().get(i).codec()).encode(this.arguments[i], encoder);
			}
		}
	}

	@Override
	public String procedureName() {
		return this.name;
	}

}
