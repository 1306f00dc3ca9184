/**
 * RPCSEC_GSS (RFC 2203) on the wire: the credential of each call ({@code rpc_gss_cred_t}, RFC
 * 2203 §5), the control procedures that create and destroy a context (§5.2), the integrity and
 * privacy bodies (§5.3.2) and the Kerberos V5 credentials a session is built on. Part of the
 * ONC RPC layer: it names nothing above {@code io.rpcrdma.oncrpc} and {@code io.rpcrdma.xdr}.
 */
package io.rpcrdma.oncrpc.gss;
