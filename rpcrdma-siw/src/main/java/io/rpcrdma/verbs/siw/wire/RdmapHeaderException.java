package io.rpcrdma.verbs.siw.wire;

/**
 * An RDMAP header (RFC 5040 §4) is unusable: unsupported RDMAP version, unknown opcode, an
 * opcode on the wrong DDP buffer model, or a Read Request or Terminate whose layout is wrong.
 */
public final class RdmapHeaderException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	public RdmapHeaderException(TerminateError terminateError, String message) {
		super(terminateError, message);
	}

}
