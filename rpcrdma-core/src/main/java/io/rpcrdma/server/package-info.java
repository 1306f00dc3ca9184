/**
 * The ONC RPC server above one or more RPC-over-RDMA connections.
 * <p>
 * {@link io.rpcrdma.server.ProgramRegistry} maps (program, version, procedure) to
 * {@link io.rpcrdma.server.ProcedureHandler}s; {@link io.rpcrdma.server.RpcDispatcher} turns an
 * encoded call into an encoded reply, running handlers on a
 * {@link io.rpcrdma.server.ServerExecutor} and writing results straight into a buffer from the
 * transport's {@link io.rpcrdma.server.ReplyBufferSupplier}, sent through its
 * {@link io.rpcrdma.server.ReplySink}. {@link io.rpcrdma.server.DuplicateRequestCache} gives
 * non-idempotent procedures at-most-once execution across retransmissions, and
 * {@link io.rpcrdma.server.InFlightTracker} supports a graceful shutdown.
 * <p>
 * Bulk data: a handler's {@link io.rpcrdma.server.ServerCall} tells what the requester offered
 * for the reply ({@link io.rpcrdma.server.ChunkOffer}: Write and Reply chunks, RPC-over-RDMA
 * version) and collects the DDP-eligible result items the handler marks, which the transport
 * places in the requester's Write chunks (RFC 8166 §3.4.6).
 * <p>
 * Joined: {@link io.rpcrdma.server.RpcServer} listens for RPC-over-RDMA connections and
 * dispatches their calls, keyed by the requester's {@link io.rpcrdma.server.RequesterAddress}
 * (address and port), and shuts down gracefully.
 */
package io.rpcrdma.server;
