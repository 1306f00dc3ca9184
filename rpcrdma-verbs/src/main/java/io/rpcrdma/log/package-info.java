/**
 * What every layer writes for people, from the RDMA providers up to the RPC server: refusal
 * logs ({@link io.rpcrdma.log.RefusalLog}) and durations as messages write them
 * ({@link io.rpcrdma.log.Durations}). It depends on the JDK alone and lives in rpcrdma-verbs,
 * the bottom module, so that sharing one does not make a layer reach into another's package.
 */
package io.rpcrdma.log;
