package io.rpcrdma.service.e2e;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's implementation of both versions of the inventory program.
 */
class InventoryService implements Inventory, InventoryV2 {

	final Map<String, Item> items = new ConcurrentHashMap<>();

	final AtomicInteger puts = new AtomicInteger();

	final CountDownLatch release = new CountDownLatch(1);

	final CountDownLatch waiting = new CountDownLatch(1);

	@Override
	public Item find(String sku) {
		return this.items.get(sku);
	}

	@Override
	public List<Item> search(Set<String> tags, int limit) {
		List<Item> found = new ArrayList<>();
		this.items.values()
			.stream()
			.filter((item) -> item.tags().containsAll(tags))
			.sorted((a, b) -> a.sku().compareTo(b.sku()))
			.limit(limit)
			.forEach(found::add);
		return found;
	}

	@Override
	public Map<String, Integer> stock(List<String> skus) {
		Map<String, Integer> stock = new LinkedHashMap<>();
		for (String sku : skus) {
			stock.put(sku, this.items.containsKey(sku) ? 1 : 0);
		}
		return stock;
	}

	@Override
	public void put(Item item) throws InventoryException {
		if (item.priceCents() < 0) {
			throw new InventoryException("price of " + item.sku() + " must not be negative");
		}
		this.puts.incrementAndGet();
		this.items.put(item.sku(), item);
	}

	@Override
	public CompletableFuture<Integer> countAsync(Optional<String> prefix) {
		return CompletableFuture.supplyAsync(
				() -> (int) this.items.keySet().stream().filter((sku) -> sku.startsWith(prefix.orElse(""))).count());
	}

	@Override
	public String fail(String kind) {
		switch (kind) {
			case "state" -> throw new IllegalStateException("the inventory is closed");
			case "server-only" -> throw new ServerOnlyException(7);
			case "undeclared-checked" -> throw sneaky(new IOException("disk gone"));
			case "error" -> throw new AssertionError("broken invariant");
			default -> {
				return kind;
			}
		}
	}

	@Override
	public byte[] blob(int size) {
		return new byte[size];
	}

	@Override
	public int awaitRelease(int value) {
		this.waiting.countDown();
		try {
			this.release.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return value;
	}

	@Override
	public long totalValueCents() {
		return this.items.values().stream().mapToLong(Item::priceCents).sum();
	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> RuntimeException sneaky(Throwable failure) throws E {
		throw (E) failure;
	}

}
