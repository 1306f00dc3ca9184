/**
 * The client side of the Spring programming model: {@link
 * io.rpcrdma.spring.boot.client.ImportRpcClients} declares client interfaces as beans, made by
 * {@link io.rpcrdma.spring.boot.client.RpcClientFactory} from their specifications, with
 * customizers, discovery and caller security.
 */
package io.rpcrdma.spring.boot.client;
