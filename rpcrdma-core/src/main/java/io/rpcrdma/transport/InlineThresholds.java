package io.rpcrdma.transport;

/**
 * The inline thresholds of one connection in one version (RFC 8166 §3.3.2): the most bytes
 * each direction may convey in a Send, after the RFC 8797 private data exchange.
 *
 * @param version the RPC-over-RDMA version, 1 or 2
 * @param send the most this side sends inline
 * @param receive the most the peer may send this side inline
 */
public record InlineThresholds(int version, int send, int receive) {
}
