/**
 * The demo application: an object store served over RPC-over-RDMA with the starter, run as the
 * {@code server} or the {@code client} profile (see the README).
 */
package io.rpcrdma.demo;
