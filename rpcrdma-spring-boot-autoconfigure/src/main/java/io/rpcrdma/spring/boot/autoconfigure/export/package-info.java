/**
 * Auto-configuration that exports every {@code @RpcService} bean to the server as an ONC RPC
 * program, failing the start with the bean's name when one cannot be.
 */
package io.rpcrdma.spring.boot.autoconfigure.export;
