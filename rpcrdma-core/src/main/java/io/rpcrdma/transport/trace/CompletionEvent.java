package io.rpcrdma.transport.trace;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A work completion was polled from a connection's completion queue, successful, failed or flushed. */
@Name("io.rpcrdma.Completion")
@Label("RPC-over-RDMA Completion")
@Category({ "rpcrdma", "Work Request" })
@Description("A work completion was polled from a connection's completion queue")
@Enabled(false)
@StackTrace(false)
public final class CompletionEvent extends jdk.jfr.Event {

	@Label("Connection")
	public long connection;

	@Label("Opcode")
	@Description("SEND, RDMA_WRITE, RDMA_READ or RECV; empty for a flushed work request the provider did not name")
	public String opcode;

	@Label("Work Request ID")
	public long wrId;

	@Label("Status")
	public String status;

	@Label("Bytes")
	@Description("Bytes received, for a Receive")
	@DataAmount
	public long bytes;

}
