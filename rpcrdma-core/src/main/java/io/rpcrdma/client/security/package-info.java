/**
 * The client's half of ONC RPC security flavors beyond AUTH_SYS:
 * {@link io.rpcrdma.client.security.RpcSecGssClient} creates an RPCSEC_GSS context with a
 * server (RFC 2203 §5.2) and is an {@link io.rpcrdma.client.RpcCaller} whose calls carry its
 * credential and verifier and whose replies are checked against the server's verifier.
 */
package io.rpcrdma.client.security;
