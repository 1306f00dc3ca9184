/**
 * Export of bound services to the XDR language (RFC 4506 §6, RFC 5531 §12) for rpcgen.
 */
package io.rpcrdma.service.xdrlang;
