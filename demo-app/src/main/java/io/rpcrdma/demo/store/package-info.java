/**
 * The demo's object store: an ONC RPC program (RFC 5531) whose object contents travel by RDMA
 * Read and Write chunks when large (RFC 8166 §3.4), its implementation and its faults.
 */
package io.rpcrdma.demo.store;
