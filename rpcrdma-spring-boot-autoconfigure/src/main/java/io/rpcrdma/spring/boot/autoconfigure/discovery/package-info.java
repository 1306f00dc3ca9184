/**
 * Spring Cloud service discovery: the RPC server's entries in the application's own
 * registration, and clients whose address is {@code discovery:///<service-id>}.
 */
package io.rpcrdma.spring.boot.autoconfigure.discovery;
