/**
 * The Spring programming model of rpcrdma: {@link io.rpcrdma.spring.boot.RpcService} exports a
 * bean as an ONC RPC program, {@link io.rpcrdma.spring.boot.RpcCallbacks} and {@link
 * io.rpcrdma.spring.boot.RpcCallbackService} serve programs to the server in the backward
 * direction (RFC 8167). The auto-configuration that acts on them is in the sub-packages.
 */
package io.rpcrdma.spring.boot;
