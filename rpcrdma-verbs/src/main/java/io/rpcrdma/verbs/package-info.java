/**
 * The RDMA provider SPI, the bottom layer: RFC 5666 §2's abstract model of an RDMA provider
 * (protection domains, registered memory regions, queue pairs posting Send, RDMA Write and
 * RDMA Read, completion queues, and the connection manager), with one exception type per
 * failure. Everything above reaches a provider through these interfaces only; providers are
 * found through {@link io.rpcrdma.verbs.RdmaProviderFactory} service entries.
 */
package io.rpcrdma.verbs;
