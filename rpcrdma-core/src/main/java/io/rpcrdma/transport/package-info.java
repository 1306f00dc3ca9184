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
 * Threading: completions of one connection are handled on the provider's thread and never
 * block; buffers are leased with {@code tryLease}. Reply futures complete on that thread, so
 * continuations that block must move to an executor. Credit waits are futures with deadlines
 * on one shared timer thread.
 */
package io.rpcrdma.transport;
