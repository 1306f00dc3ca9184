/**
 * Spring Boot failure analyzers for the start-up failures a user of the starter can cause: an
 * RDMA provider that cannot run here, a server address that cannot be listened on, invalid
 * {@code rpcrdma.*} properties, a service the binding cannot serve, a client interface that is
 * not an RPC program. Each turns the failure into Boot's "APPLICATION FAILED TO START" report:
 * a description and an action, without a stack trace.
 */
package io.rpcrdma.spring.boot.autoconfigure.diagnostics;
