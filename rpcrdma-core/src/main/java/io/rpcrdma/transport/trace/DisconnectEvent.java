package io.rpcrdma.transport.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** An RPC-over-RDMA connection went down, closed by this side or lost. */
@Name("io.rpcrdma.Disconnect")
@Label("RPC-over-RDMA Disconnect")
@Category({ "rpcrdma", "Connection" })
@Description("An RPC-over-RDMA connection went down")
@Enabled(false)
@StackTrace(false)
public final class DisconnectEvent extends jdk.jfr.Event {

	@Label("Connection")
	public long connection;

	@Label("Peer Address")
	public String peer;

	@Label("Reason")
	public String reason;

}
