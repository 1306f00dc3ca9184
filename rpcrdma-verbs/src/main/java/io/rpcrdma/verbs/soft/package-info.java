/**
 * What the software providers (siw, loopback) share: a device's region table, STag generation
 * and checks (RFC 5040 §6, RFC 5041 §7), data placement into registered memory, and a software
 * completion queue. Below the providers, above the SPI; nothing outside {@code
 * io.rpcrdma.verbs} names it.
 */
package io.rpcrdma.verbs.soft;
