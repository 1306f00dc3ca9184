/**
 * The read-only view of the running RPC-over-RDMA infrastructure that health, metrics and the
 * actuator endpoint share.
 */
package io.rpcrdma.spring.boot.autoconfigure.management;
