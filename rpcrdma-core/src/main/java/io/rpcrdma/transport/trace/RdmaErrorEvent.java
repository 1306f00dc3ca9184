package io.rpcrdma.transport.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** An RDMA_ERROR message (RFC 8166 §4.5) was sent or received. */
@Name("io.rpcrdma.RdmaError")
@Label("RPC-over-RDMA RDMA_ERROR")
@Category({ "rpcrdma", "Connection" })
@Description("An RDMA_ERROR message was sent or received")
@Enabled(false)
@StackTrace(false)
public final class RdmaErrorEvent extends jdk.jfr.Event {

	@Label("Connection")
	public long connection;

	@Label("Direction")
	@Description("sent or received")
	public String direction;

	@Label("XID")
	public int xid;

	@Label("Error")
	@Description("ERR_VERS, ERR_CHUNK, RDMA_ERR_VERS, RDMA_ERR_BAD_HEADER or RDMA_ERR_INVAL_OPTION")
	public String error;

}
