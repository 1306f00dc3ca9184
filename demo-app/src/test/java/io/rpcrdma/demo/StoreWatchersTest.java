package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.demo.store.StoreLimits;
import io.rpcrdma.demo.store.StoreWatcher;
import io.rpcrdma.demo.store.StoreWatchers;
import io.rpcrdma.service.BulkData;

/**
 * Who the store tells of a change: watchers of a matching prefix only, never holding the change
 * up; a watcher whose call back fails, or that says it has had enough, is forgotten; and the
 * number of watchers is bounded.
 */
class StoreWatchersTest {

	private final List<StoreWatcher> next = new CopyOnWriteArrayList<>();

	private final StoreWatchers watchers = new StoreWatchers(() -> this.next.remove(0));

	private final ObjectStoreService store = new ObjectStoreService(new StoreLimits(1 << 20, 1 << 24),
			Clock.systemUTC(), this.watchers);

	@Test
	void onlyWatchersOfAMatchingPrefixAreToldAndTheChangeIsNotHeldUp() {
		List<String> docs = new CopyOnWriteArrayList<>();
		CompletableFuture<Boolean> pending = new CompletableFuture<>();
		this.next.add((kind, key, size) -> {
			docs.add(kind + " " + key + " " + size);
			return pending;
		});
		this.store.watch("docs/");

		this.store.put("docs/a", BulkData.wrap(new byte[3]));
		this.store.put("photos/b", BulkData.wrap(new byte[1]));
		this.store.delete("docs/a");

		assertThat(docs).containsExactly("put docs/a 3", "delete docs/a 0");
		assertThat(this.watchers.count()).isEqualTo(1);
	}

	@Test
	void aWatcherThatFailsOrHasHadEnoughIsForgotten() {
		this.next.add((kind, key, size) -> CompletableFuture.failedFuture(
				new IllegalStateException("the connection to the watcher was lost")));
		this.next.add((kind, key, size) -> CompletableFuture.completedFuture(Boolean.FALSE));
		this.store.watch("");
		this.store.watch("");
		assertThat(this.watchers.count()).isEqualTo(2);

		this.store.put("k", BulkData.wrap(new byte[1]));

		assertThat(this.watchers.count()).isZero();
	}

	@Test
	void theNumberOfWatchersIsBounded() {
		for (int i = 0; i < StoreWatchers.MAX_WATCHERS; i++) {
			this.next.add((kind, key, size) -> CompletableFuture.completedFuture(Boolean.TRUE));
			this.store.watch("p" + i);
		}
		assertThatIllegalStateException().isThrownBy(() -> this.store.watch("one more"))
			.withMessageContaining(StoreWatchers.MAX_WATCHERS + " watchers already");
	}

	@Test
	void aStoreWithoutWatchersRefusesToBeWatched() {
		ObjectStoreService plain = new ObjectStoreService(new StoreLimits(1 << 20, 1 << 24), Clock.systemUTC());

		org.assertj.core.api.Assertions.assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> plain.watch("x"));
	}

}
