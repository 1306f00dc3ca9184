/**
 * The {@code rpcrdma} actuator endpoint.
 */
package io.rpcrdma.spring.boot.autoconfigure.endpoint;
