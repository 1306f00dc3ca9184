/**
 * One RPC-over-RDMA connection (RFC 5666, RFC 8166, draft-cel-nfsv4-rpcrdma-version-two):
 * version negotiation, credits, inline thresholds from RFC 8797 private data, and the
 * conveyance of RPC messages inline or through Read, Write, Reply and Position-Zero Read
 * chunks, with RDMA_DONE for RFC 5666 peers.
 * <p>
 * The RPC layer sees a requester as an {@link io.rpcrdma.transport.RpcTransport}
 * ({@link io.rpcrdma.transport.RpcRdmaClientConnection}): it hands over an encoded call with
 * the byte ranges of its DDP-eligible arguments ({@link io.rpcrdma.transport.OutboundCall})
 * and receives the reply matched by XID ({@link io.rpcrdma.transport.InboundReply}). A
 * responder ({@link io.rpcrdma.transport.RpcRdmaServer}) hands each reassembled call to an
 * {@link io.rpcrdma.transport.InboundCallHandler} with a
 * {@link io.rpcrdma.transport.ReplySender}. Nothing here knows about RPC programs; XIDs,
 * per-call deadlines and retransmission belong to the RPC layer.
 * <p>
 * Inside, the work is split by job as Linux splits xprtrdma and svcrdma. What both ends share
 * ({@code RpcRdmaEndpoint}: completions, Sends, failure) composes {@code ReceiveQueue} (the
 * posted receives), {@code WorkRequests} (work requests by wr_id), {@code InlineSizes} (RFC 8797 thresholds), {@code ChunkTransfers} (RDMA
 * Read of Read chunks, RDMA Write into Write and Reply chunks; {@code svc_rdma_rw.c}) and
 * {@code OperationWatch}. The requester composes {@code OutstandingCalls} (calls by XID),
 * {@code CallMarshaller} and {@code ReplyUnmarshaller} ({@code rpc_rdma.c}),
 * {@code VersionNegotiation} and {@code BackwardCallReceiver} ({@code backchannel.c}); the
 * responder ({@code svc_rdma_recvfrom.c}) composes {@code ReadChunkPuller} and
 * {@code ReplyMarshaller} ({@code svc_rdma_sendto.c}) around each call's {@code CallContext}.
 * The two roles never call each other.
 * <p>
 * Threading: completions of one connection are handled on the provider's thread and never
 * block; buffers are leased with {@code tryLease}. Reply futures complete on that thread, so
 * continuations that block must move to an executor. Credit waits are futures with deadlines
 * on one shared timer thread.
 */
package io.rpcrdma.transport;
