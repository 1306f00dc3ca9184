package io.rpcrdma.transport.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** An RPC-over-RDMA connection was established (RFC 8166 §3.3: credits and thresholds start here). */
@Name("io.rpcrdma.Connect")
@Label("RPC-over-RDMA Connect")
@Category({ "rpcrdma", "Connection" })
@Description("An RPC-over-RDMA connection was established")
@Enabled(false)
@StackTrace(false)
public final class ConnectEvent extends jdk.jfr.Event {

	@Label("Connection")
	@Description("The connection's number in this process, as in the other rpcrdma events")
	public long connection;

	@Label("Role")
	@Description("requester (client) or responder (server)")
	public String role;

	@Label("Local Address")
	public String local;

	@Label("Peer Address")
	public String peer;

}
