/**
 * The {@code @RpcRdmaTest} test slice: an application context with only the rpcrdma
 * auto-configuration and the application's RPC beans, a server on a free port ({@code
 * @LocalRpcRdmaPort}), and {@code @AutoConfigureRpcRdma} for other tests.
 */
package io.rpcrdma.spring.boot.test;
