package io.rpcrdma.service.e2e;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.codec.XdrOptional;

/**
 * A realistic service for the end-to-end tests: records, collections, nulls, a declared
 * checked exception, an asynchronous method, a local default method.
 */
@RpcProgram(number = 0x20000500, version = 1, name = "Inventory")
public interface Inventory {

	/** An article. */
	record Item(String sku, String name, long priceCents, Set<String> tags, @XdrOptional String note) {
	}

	@RpcProcedure(1)
	@Idempotent
	@XdrOptional
	Item find(String sku);

	@RpcProcedure(2)
	@Idempotent
	List<Item> search(Set<String> tags, int limit);

	@RpcProcedure(3)
	Map<String, Integer> stock(List<String> skus);

	@RpcProcedure(4)
	void put(Item item) throws InventoryException;

	@RpcProcedure(5)
	CompletableFuture<Integer> countAsync(Optional<String> prefix);

	@RpcProcedure(6)
	String fail(String kind);

	@RpcProcedure(7)
	byte[] blob(int size);

	@RpcProcedure(8)
	int awaitRelease(int value);

	default Item findOrPlaceholder(String sku) {
		Item item = find(sku);
		return (item != null) ? item : new Item(sku, "(none)", 0, Set.of(), null);
	}

}
