package io.rpcrdma.transport.trace;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A work request was posted: a Send, RDMA Read or RDMA Write on the send queue, or a Receive. */
@Name("io.rpcrdma.Post")
@Label("RPC-over-RDMA Post")
@Category({ "rpcrdma", "Work Request" })
@Description("A work request was posted to a connection's queue pair")
@Enabled(false)
@StackTrace(false)
public final class PostEvent extends jdk.jfr.Event {

	@Label("Connection")
	public long connection;

	@Label("Opcode")
	@Description("SEND, SEND_WITH_INVALIDATE, RDMA_WRITE, RDMA_READ or RECV")
	public String opcode;

	@Label("Work Request ID")
	public long wrId;

	@Label("Bytes")
	@DataAmount
	public long bytes;

	@Label("Scatter/Gather Entries")
	public int entries;

}
