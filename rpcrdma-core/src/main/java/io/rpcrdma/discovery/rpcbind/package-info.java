/**
 * Finding RPC-over-RDMA servers through rpcbind (RFC 1833) on hosts without another
 * directory: RFC 5666 §10 has a server register its port under the netids RFC 5666 §12
 * defines, {@code rdma} for IPv4 and {@code rdma6} for IPv6, and a client resolve it there.
 * <p>
 * {@link io.rpcrdma.discovery.rpcbind.RpcbindClient} speaks rpcbind version 4 over TCP with
 * RFC 5531 §11 record marking (NULL, SET, UNSET, GETADDR, GETVERSADDR, DUMP), reusing the
 * ONC RPC codec; it is an ordinary ONC RPC client, not an RPC-over-RDMA one, since rpcbind
 * itself listens on TCP port 111. {@link io.rpcrdma.discovery.rpcbind.UniversalAddress} is the
 * RFC 5665 address text. {@link io.rpcrdma.discovery.rpcbind.RpcbindRegistration} registers a
 * server's programs and unregisters them on close;
 * {@link io.rpcrdma.discovery.rpcbind.RpcbindResolver} turns (host, program, version) into the
 * address to connect to.
 * <p>
 * This package sits beside {@code io.rpcrdma.client} and {@code io.rpcrdma.server} and uses
 * only {@code io.rpcrdma.oncrpc} and {@code io.rpcrdma.xdr} below it.
 */
package io.rpcrdma.discovery.rpcbind;
