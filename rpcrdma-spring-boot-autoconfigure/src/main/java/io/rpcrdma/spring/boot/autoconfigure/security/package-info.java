/**
 * Auto-configuration that joins RPC authentication (AUTH_SYS, RPCSEC_GSS) to Spring Security:
 * the caller's principal becomes an authentication token in the security context, so method
 * security applies to {@code @RpcService} methods.
 */
package io.rpcrdma.spring.boot.autoconfigure.security;
