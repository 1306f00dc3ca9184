/**
 * The ONC RPC client above one RPC-over-RDMA connection.
 * <p>
 * {@link io.rpcrdma.client.PendingCalls} allocates xids ({@link io.rpcrdma.client.XidAllocator})
 * and matches replies to calls, with per-call deadlines on one shared
 * {@link io.rpcrdma.client.CallTimer}, cancellation, a bound on outstanding calls, and
 * {@link io.rpcrdma.client.PendingCalls#failAll failAll} on connection loss.
 * {@link io.rpcrdma.client.ReplyRouter} takes each inbound encoded reply from the transport and
 * completes its call with a {@link io.rpcrdma.client.ReceivedReply} (results read in place)
 * or fails it with the matching exception.
 * {@link io.rpcrdma.client.ReplyInterpreter} maps reply statuses to the
 * {@link io.rpcrdma.client.RpcCallException} hierarchy, and
 * {@link io.rpcrdma.client.RetryPolicy} with {@link io.rpcrdma.client.Backoff} retries
 * idempotent calls after a lost connection.
 * <p>
 * Joined: {@link io.rpcrdma.client.RpcClient} is one connection ({@link io.rpcrdma.client.CallBody}
 * writes arguments, {@link io.rpcrdma.client.CallChunks} marks bulk data for Read, Write and Reply
 * chunks); when its connection closes every pending call fails with
 * {@link io.rpcrdma.client.ConnectionLostException}, caused by the transport's
 * {@link io.rpcrdma.transport.TransportClosedException}. {@link io.rpcrdma.client.RpcClientPool}
 * holds several connections to one endpoint, picks the one with the most free credits,
 * reconnects with backoff and retries idempotent calls on another connection.
 */
package io.rpcrdma.client;
