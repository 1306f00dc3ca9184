/**
 * Micrometer Observation of service calls and meters of the RPC-over-RDMA infrastructure.
 */
package io.rpcrdma.spring.boot.autoconfigure.metrics;
