package io.rpcrdma.demo.store;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The clients watching the store, each with its prefix, told of every change under it without
 * holding up the change: the call back is asynchronous, and a watcher that has gone (its
 * connection lost) or said it has had enough is forgotten.
 */
public final class StoreWatchers {

	/** The most watchers at once: each is a connection's backward-direction proxy kept alive. */
	public static final int MAX_WATCHERS = 256;

	private final Supplier<StoreWatcher> caller;

	private final List<Watch> watches = new CopyOnWriteArrayList<>();

	/**
	 * @param caller the watcher of the client whose call is running, for {@link #watch}
	 */
	public StoreWatchers(Supplier<StoreWatcher> caller) {
		this.caller = Objects.requireNonNull(caller, "caller");
	}

	/** Watchers for a store that nobody can watch: {@link #watch} refuses. */
	public static StoreWatchers none() {
		return new StoreWatchers(() -> {
			throw new UnsupportedOperationException("This object store does not take watchers");
		});
	}

	/**
	 * Adds the calling client as a watcher of {@code prefix}.
	 * @param prefix the keys watched
	 * @throws IllegalStateException if {@value #MAX_WATCHERS} clients watch already
	 */
	void watch(String prefix) {
		Objects.requireNonNull(prefix, "prefix");
		if (this.watches.size() >= MAX_WATCHERS) {
			throw new IllegalStateException("The store has " + MAX_WATCHERS + " watchers already; try again later");
		}
		this.watches.add(new Watch(prefix, this.caller.get()));
	}

	void changed(String kind, String key, long size) {
		for (Watch watch : this.watches) {
			if (key.startsWith(watch.prefix())) {
				watch.watcher().changed(kind, key, size).whenComplete((more, error) -> {
					if (error != null || !Boolean.TRUE.equals(more)) {
						this.watches.remove(watch);
					}
				});
			}
		}
	}

	/** @return the watchers now */
	public int count() {
		return this.watches.size();
	}

	private record Watch(String prefix, StoreWatcher watcher) {
	}

}
