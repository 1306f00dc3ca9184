package io.rpcrdma.client;

import java.util.Objects;

import io.rpcrdma.oncrpc.ProgramNumberText;
import io.rpcrdma.oncrpc.RpcCall;

/**
 * Which call an exception or a pending entry is about: where it went and what it asked for.
 * Numbers are unsigned.
 *
 * @param endpoint the server, as the transport names it (for example
 * {@code rdma://10.0.0.7:20049})
 * @param xid the call's transaction id
 * @param program the program number
 * @param version the program version
 * @param procedure the procedure number
 * @param name what the caller calls the procedure (for example {@code FileStore.read}), or
 * {@code null}; named first in messages when present
 */
public record RemoteCall(String endpoint, int xid, int program, int version, int procedure, String name) {

	public RemoteCall {
		Objects.requireNonNull(endpoint, "endpoint");
	}

	/**
	 * A call known only by its numbers.
	 * @param endpoint the server
	 * @param xid the transaction id
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number
	 */
	public RemoteCall(String endpoint, int xid, int program, int version, int procedure) {
		this(endpoint, xid, program, version, procedure, null);
	}

	/**
	 * @param endpoint the server
	 * @param call the call header
	 * @return the description of that call
	 */
	public static RemoteCall of(String endpoint, RpcCall call) {
		return new RemoteCall(endpoint, call.xid(), call.program(), call.version(), call.procedure());
	}

	/**
	 * @return "program P version V procedure N (xid 0x…) at ENDPOINT", preceded by the name
	 * when there is one: "NAME (program P version V procedure N, xid 0x…) at ENDPOINT"
	 */
	@Override
	public String toString() {
		if (this.name != null) {
			return this.name + " (program " + ProgramNumberText.hex(this.program) + " version "
					+ Integer.toUnsignedString(this.version) + " procedure " + Integer.toUnsignedString(this.procedure)
					+ ", xid " + String.format("0x%08x", this.xid) + ") at " + this.endpoint;
		}
		return "program " + ProgramNumberText.hex(this.program) + " version " + Integer.toUnsignedString(this.version)
				+ " procedure " + Integer.toUnsignedString(this.procedure) + " (xid " + String.format("0x%08x", this.xid)
				+ ") at " + this.endpoint;
	}

}
