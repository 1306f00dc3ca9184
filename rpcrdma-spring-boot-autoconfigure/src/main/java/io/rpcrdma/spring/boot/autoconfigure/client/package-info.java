/**
 * Auto-configuration of the clients: the client factory, and the specifications of the clients
 * {@code @ImportRpcClients} declares, from {@code rpcrdma.client.*}.
 */
package io.rpcrdma.spring.boot.autoconfigure.client;
