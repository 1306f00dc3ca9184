package io.rpcrdma.demo.store;

/**
 * What a store holds and accepts.
 *
 * @param objects how many objects it holds
 * @param bytes their total size
 * @param maxObjectBytes the largest object it accepts
 * @param capacityBytes the most bytes it holds in all
 */
public record StoreStatus(long objects, long bytes, long maxObjectBytes, long capacityBytes) {

}
