package io.rpcrdma.transport;

import java.util.function.Consumer;

/**
 * A mutable map from a primitive {@code long} key to a value, with open addressing and linear
 * probing, so that the transport's per-call lookups (XIDs of pending calls, wr_ids of work
 * requests) neither box their key nor allocate a node. Removal shifts the following entries
 * back instead of leaving tombstones, so probes stay short however long the connection lives.
 * It grows when half full and never shrinks below its initial size.
 * <p>
 * Not thread-safe: the owner guards it with a lock. Public for the RPC client above the
 * transport, whose pending calls are kept the same way.
 *
 * @param <V> the value type; {@code null} marks an empty slot and cannot be stored
 */
public final class LongKeyTable<V> {

	private long[] keys;

	private Object[] values;

	private int mask;

	private int size;

	/**
	 * @param expected how many entries are usually present; the table holds at least that
	 * many before it first grows
	 */
	public LongKeyTable(int expected) {
		int capacity = Integer.highestOneBit(Math.max(4, expected) * 4 - 1);
		this.keys = new long[capacity];
		this.values = new Object[capacity];
		this.mask = capacity - 1;
	}

	/** @return the number of entries */
	public int size() {
		return this.size;
	}

	/** @return whether there are none */
	public boolean isEmpty() {
		return this.size == 0;
	}

	/**
	 * @param key the key
	 * @return its value, or {@code null}
	 */
	@SuppressWarnings("unchecked")
	public V get(long key) {
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

	/**
	 * Stores a value unless the key has one.
	 * @param key the key
	 * @param value the value, not {@code null}
	 * @return the value already stored, or {@code null} if {@code value} was stored
	 */
	@SuppressWarnings("unchecked")
	public V putIfAbsent(long key, V value) {
		if (value == null) {
			throw new IllegalArgumentException("A LongKeyTable cannot store null");
		}
		int slot = slot(key);
		Object existing;
		while ((existing = this.values[slot]) != null) {
			if (this.keys[slot] == key) {
				return (V) existing;
			}
			slot = (slot + 1) & this.mask;
		}
		this.keys[slot] = key;
		this.values[slot] = value;
		if (++this.size * 2 > this.values.length) {
			grow();
		}
		return null;
	}

	/**
	 * Removes a key.
	 * @param key the key
	 * @return the value it had, or {@code null}
	 */
	@SuppressWarnings("unchecked")
	public V remove(long key) {
		int slot = slot(key);
		Object value;
		while ((value = this.values[slot]) != null) {
			if (this.keys[slot] == key) {
				delete(slot);
				return (V) value;
			}
			slot = (slot + 1) & this.mask;
		}
		return null;
	}

	/**
	 * Removes a key only if it maps to {@code expected} (compared by identity).
	 * @param key the key
	 * @param expected the value it must have
	 * @return whether it was removed
	 */
	public boolean remove(long key, V expected) {
		int slot = slot(key);
		Object value;
		while ((value = this.values[slot]) != null) {
			if (this.keys[slot] == key) {
				if (value != expected) {
					return false;
				}
				delete(slot);
				return true;
			}
			slot = (slot + 1) & this.mask;
		}
		return false;
	}

	/**
	 * Empties the table, handing each value to {@code action} (in no particular order).
	 * @param action told each removed value
	 */
	@SuppressWarnings("unchecked")
	public void clear(Consumer<? super V> action) {
		for (int i = 0; i < this.values.length; i++) {
			Object value = this.values[i];
			if (value != null) {
				this.values[i] = null;
				action.accept((V) value);
			}
		}
		this.size = 0;
	}

	/**
	 * Hands each value to {@code action} (in no particular order), leaving the table as it is.
	 * @param action told each value; it must not change the table
	 */
	@SuppressWarnings("unchecked")
	public void forEach(Consumer<? super V> action) {
		for (Object value : this.values) {
			if (value != null) {
				action.accept((V) value);
			}
		}
	}

	/** Knuth's backward-shift deletion for linear probing: no tombstones. */
	private void delete(int slot) {
		int hole = slot;
		int next = (hole + 1) & this.mask;
		while (this.values[next] != null) {
			int home = slot(this.keys[next]);
			// Move the entry into the hole unless its home lies cyclically in (hole, next].
			if (((next - home) & this.mask) >= ((next - hole) & this.mask)) {
				this.keys[hole] = this.keys[next];
				this.values[hole] = this.values[next];
				hole = next;
			}
			next = (next + 1) & this.mask;
		}
		this.values[hole] = null;
		this.size--;
	}

	private void grow() {
		long[] oldKeys = this.keys;
		Object[] oldValues = this.values;
		int capacity = oldValues.length * 2;
		this.keys = new long[capacity];
		this.values = new Object[capacity];
		this.mask = capacity - 1;
		for (int i = 0; i < oldValues.length; i++) {
			Object value = oldValues[i];
			if (value != null) {
				int slot = slot(oldKeys[i]);
				while (this.values[slot] != null) {
					slot = (slot + 1) & this.mask;
				}
				this.keys[slot] = oldKeys[i];
				this.values[slot] = value;
			}
		}
	}

	private int slot(long key) {
		// Fibonacci hashing: sequential wr_ids and XIDs spread over the whole table.
		return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & this.mask;
	}

}
