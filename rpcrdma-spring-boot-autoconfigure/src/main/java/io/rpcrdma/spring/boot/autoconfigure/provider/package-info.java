/**
 * Auto-configuration of the RDMA provider ({@code rpcrdma.provider}) and the registered memory
 * pool, with customizers for each.
 */
package io.rpcrdma.spring.boot.autoconfigure.provider;
