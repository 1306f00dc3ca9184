/**
 * Logging helpers every layer may use, from the RDMA providers up to the RPC server: they
 * depend on the JDK alone, so that sharing one does not make a layer reach into another's
 * package (a transport once imported a provider's helper for this).
 */
package io.rpcrdma.log;
