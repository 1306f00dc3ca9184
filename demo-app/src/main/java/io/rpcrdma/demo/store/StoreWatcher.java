package io.rpcrdma.demo.store;

import java.util.concurrent.CompletableFuture;

import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * What a client that watches the store serves back to it (RFC 8167, the backward direction):
 * the store calls it on the connection the client's {@link ObjectStore#watch} came on, so the
 * client needs no listening port of its own.
 */
@RpcProgram(number = 0x20000901, version = 1, name = "StoreWatcher")
public interface StoreWatcher {

	/** {@link #changed}'s kind for an object stored. */
	String PUT = "put";

	/** {@link #changed}'s kind for an object deleted. */
	String DELETE = "delete";

	/**
	 * An object under a watched prefix changed.
	 * @param kind {@link #PUT} or {@link #DELETE}
	 * @param key the object's key
	 * @param size its size after the change, 0 when deleted
	 * @return whether the watcher still wants changes; {@code false} ends the watch
	 */
	@RpcProcedure(1)
	CompletableFuture<Boolean> changed(String kind, String key, long size);

}
