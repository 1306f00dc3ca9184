package io.rpcrdma.server;

import java.util.Map;

/**
 * An immutable int-keyed map with open addressing, so a lookup on the call path neither boxes
 * its key nor follows more than a few array slots.
 */
final class IntMap<V> {

	private static final IntMap<?> EMPTY = new IntMap<>(Map.of());

	private final int[] keys;

	private final Object[] values;

	private final int mask;

	private IntMap(Map<Integer, ? extends V> source) {
		// At most half full, so a miss ends at an empty slot within a short probe.
		int capacity = Integer.highestOneBit(Math.max(1, source.size()) * 2) * 2;
		this.keys = new int[capacity];
		this.values = new Object[capacity];
		this.mask = capacity - 1;
		for (Map.Entry<Integer, ? extends V> entry : source.entrySet()) {
			int slot = slot(entry.getKey());
			while (this.values[slot] != null) {
				slot = (slot + 1) & this.mask;
			}
			this.keys[slot] = entry.getKey();
			this.values[slot] = entry.getValue();
		}
	}

	@SuppressWarnings("unchecked")
	static <V> IntMap<V> of(Map<Integer, ? extends V> source) {
		return source.isEmpty() ? (IntMap<V>) EMPTY : new IntMap<>(source);
	}

	@SuppressWarnings("unchecked")
	V get(int key) {
		int slot = slot(key);
		Object value;
		while ((value = this.values[slot]) != null) {
			if (this.keys[slot] == key) {
				return (V) value;
			}
			slot = (slot + 1) & this.mask;
		}
		return null;
	}

	private int slot(int key) {
		// Fibonacci hashing spreads consecutive program and procedure numbers.
		return (key * 0x9E3779B9) >>> 16 & this.mask;
	}

}
