/**
 * Calls spread over a set of server instances, with ejection and failover.
 * <p>
 * An {@link io.rpcrdma.client.balance.InstanceSource} lists
 * {@link io.rpcrdma.client.balance.ServerInstance}s (a fixed list, an
 * {@link io.rpcrdma.client.balance.UpdatableInstanceSource}, later discovery or rpcbind);
 * {@link io.rpcrdma.client.balance.BalancedCaller} keeps one
 * {@link io.rpcrdma.client.RpcClientPool} per instance, lets a
 * {@link io.rpcrdma.client.balance.Balancer} ({@link io.rpcrdma.client.balance.BalancerKind})
 * choose each call's instance, ejects instances after consecutive connection failures and
 * probes them back with NULL calls ({@link io.rpcrdma.client.balance.Ejection}), and sends a
 * failed call to another instance only when it cannot run twice. Nothing here knows a
 * transport: each instance is reached through its pool.
 */
package io.rpcrdma.client.balance;
