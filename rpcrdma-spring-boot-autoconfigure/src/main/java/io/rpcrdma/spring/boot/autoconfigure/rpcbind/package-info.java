/**
 * Registration of the RPC server with rpcbind (RFC 1833) under the RPC-over-RDMA netids of
 * RFC 5666 §12, with {@code rpcrdma.server.rpcbind.*}.
 */
package io.rpcrdma.spring.boot.autoconfigure.rpcbind;
