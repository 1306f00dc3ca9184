/**
 * Trace events of RPC-over-RDMA connections for JDK Flight Recorder, as Linux has
 * {@code xprtrdma} and {@code svcrdma} tracepoints: a connection established and lost
 * ({@link io.rpcrdma.transport.trace.ConnectEvent}, {@link io.rpcrdma.transport.trace.DisconnectEvent}),
 * each work request posted ({@link io.rpcrdma.transport.trace.PostEvent}: Send, RDMA Read,
 * RDMA Write, Receive) and each completion ({@link io.rpcrdma.transport.trace.CompletionEvent}),
 * and each RDMA_ERROR sent or received ({@link io.rpcrdma.transport.trace.RdmaErrorEvent}).
 * <p>
 * Every event is off by default, in the JDK's {@code default} and {@code profile} settings
 * too, and costs one volatile read per post or completion while off: enable them by name
 * ({@code io.rpcrdma.*}) or class in the recording's settings before it starts.
 * {@link io.rpcrdma.transport.trace.TraceSwitch} follows recordings as they start and stop.
 */
package io.rpcrdma.transport.trace;
