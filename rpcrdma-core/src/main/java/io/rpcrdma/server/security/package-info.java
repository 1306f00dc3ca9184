/**
 * Who may call what on a server: the caller's principal (AUTH_NONE, AUTH_SYS of RFC 5531
 * Appendix A, RPCSEC_GSS), the RPCSEC_GSS server (RFC 2203 §5.2: context creation and
 * destruction, the sequence window of §5.3.3.1, integrity and privacy of §5.3.2) and the
 * bounded table of its contexts. Part of the server layer; the client's side is {@code
 * io.rpcrdma.client.security}.
 */
package io.rpcrdma.server.security;
