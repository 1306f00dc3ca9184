/**
 * The RPC-over-RDMA transport header, the layer between ONC RPC and one connection: the
 * Version One messages of RFC 8166 §4 (RDMA_MSG, RDMA_NOMSG, RDMA_MSGP of RFC 5666 §4.3,
 * RDMA_DONE, RDMA_ERROR) and the Version Two messages of the draft, their chunk lists (Read,
 * Write and Reply chunks, RFC 8166 §3.4), codecs that check every count against {@link
 * io.rpcrdma.protocol.HeaderLimits}, and the RFC 8797 connection private data. Pure values and
 * codecs: no connection, no RDMA provider.
 */
package io.rpcrdma.protocol;
