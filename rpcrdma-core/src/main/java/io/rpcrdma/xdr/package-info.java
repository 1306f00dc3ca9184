/**
 * The XDR encoder and decoder of RFC 4506 (big-endian four-byte units, padding of §4.9 and
 * §4.10), with one exception per malformed or oversized input. The bottom of the RPC stack: it
 * names no other package of the project.
 */
package io.rpcrdma.xdr;
