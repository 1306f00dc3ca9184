package io.rpcrdma.verbs.disni;

import java.util.function.ToIntFunction;

/**
 * The provider's queue pairs by index, for turning a completion's hardware wr_id back
 * into its queue pair without allocating (no boxed keys) and without locking on the
 * completion path: readers see an immutable array, writers (rare: queue pairs are created
 * and closed) replace it. Indexes are never reused, so a stale completion of a closed
 * queue pair finds nothing instead of a newer queue pair.
 *
 * @param <T> the queue pair type
 */
final class QueuePairTable<T> {

	private final ToIntFunction<T> indexOf;

	private volatile Object[] slots = new Object[64];

	private int size;

	QueuePairTable(ToIntFunction<T> indexOf) {
		this.indexOf = indexOf;
	}

	/**
	 * Looks a queue pair up.
	 * @param index its index
	 * @return the queue pair, or {@code null} if none has that index (any more)
	 */
	@SuppressWarnings("unchecked")
	T get(int index) {
		Object[] current = this.slots;
		int mask = current.length - 1;
		for (int i = 0; i < current.length; i++) {
			Object entry = current[(index + i) & mask];
			if (entry == null) {
				return null;
			}
			if (this.indexOf.applyAsInt((T) entry) == index) {
				return (T) entry;
			}
		}
		return null;
	}

	synchronized void put(T qp) {
		Object[] next = new Object[(2 * (this.size + 1) > this.slots.length) ? this.slots.length * 2
				: this.slots.length];
		for (Object existing : this.slots) {
			if (existing != null) {
				insert(next, existing);
			}
		}
		insert(next, qp);
		this.size++;
		this.slots = next;
	}

	synchronized void remove(T qp) {
		Object[] next = new Object[this.slots.length];
		boolean found = false;
		for (Object existing : this.slots) {
			if (existing == qp) {
				found = true;
			}
			else if (existing != null) {
				insert(next, existing);
			}
		}
		if (found) {
			this.size--;
			this.slots = next;
		}
	}

	synchronized int size() {
		return this.size;
	}

	@SuppressWarnings("unchecked")
	private void insert(Object[] table, Object entry) {
		int mask = table.length - 1;
		int i = this.indexOf.applyAsInt((T) entry) & mask;
		while (table[i] != null) {
			i = (i + 1) & mask;
		}
		table[i] = entry;
	}

}
