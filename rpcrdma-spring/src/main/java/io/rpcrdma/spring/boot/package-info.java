/**
 * The Spring programming model of rpcrdma: {@link io.rpcrdma.spring.boot.RpcService} exports a
 * bean as an ONC RPC program, {@link io.rpcrdma.spring.boot.RpcCallbacks} and {@link
 * io.rpcrdma.spring.boot.RpcCallbackService} serve programs to the server in the backward
 * direction (RFC 8167); {@link io.rpcrdma.spring.boot.RpcServiceBeanExporter} and {@link
 * io.rpcrdma.spring.boot.RpcCallbackServiceExporter} export those beans once the context has
 * made its singletons. This package and {@code client} are the module {@code rpcrdma-spring},
 * which needs Spring Framework only; the Boot auto-configuration that declares them as beans is
 * in {@code rpcrdma-spring-boot-autoconfigure}. The package keeps its name so that
 * applications written against earlier versions compile unchanged.
 */
package io.rpcrdma.spring.boot;
