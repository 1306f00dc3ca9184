package io.rpcrdma.discovery.rpcbind;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * rpcbind holds no RPC-over-RDMA mapping (netid {@code rdma} or {@code rdma6}, RFC 5666 §12)
 * for the program version asked for.
 */
public final class ProgramNotRegisteredException extends RpcbindException {

	private static final long serialVersionUID = 1L;

	private final int program;

	private final int version;

	ProgramNotRegisteredException(String rpcbind, int program, int version, String registered) {
		super("Program " + ProgramNumberText.hex(program) + " version " + Integer.toUnsignedString(version)
				+ " is not registered for RPC-over-RDMA (netid rdma or rdma6) with rpcbind at " + rpcbind + "; "
				+ registered + ". Is the server running there, and does it register with rpcbind?", null);
		this.program = program;
		this.version = version;
	}

	/** @return the program asked for */
	public int program() {
		return this.program;
	}

	/** @return the version asked for */
	public int version() {
		return this.version;
	}

}
