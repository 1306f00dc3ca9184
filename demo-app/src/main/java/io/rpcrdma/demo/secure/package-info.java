/**
 * The {@code secure} profile's Kerberos realm for RPCSEC_GSS (RFC 2203) when the machine has
 * none: a throw-away MIT KDC on 127.0.0.1 that stops when the JVM does.
 */
package io.rpcrdma.demo.secure;
