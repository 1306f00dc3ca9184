package io.rpcrdma.memory;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * A snapshot of a {@link RegisteredMemoryPool}'s gauges and counters, for metrics and
 * health output. Each value is read without stopping the pool, so under concurrent use
 * the values are individually accurate but not taken at one instant.
 *
 * @param registeredBytes the bytes registered now (0 once closed)
 * @param maxRegisteredBytes the budget, {@link MemoryPoolConfig#maxRegisteredBytes()}
 * @param leasedBytes the bytes of all leased buffers
 * @param freeBytes the bytes of all registered buffers not leased
 * @param registrations the memory registrations made since the pool started
 * @param deregistrations the deregistrations made since the pool started
 * @param stagRotations the STags retired by re-registering released chunk buffers
 * @param leases the leases granted since the pool started
 * @param leaseWaits the leases that had to wait for a release
 * @param exhaustionFailures the leases that failed because a class was exhausted
 * @param sizeClasses the per-class snapshots, in configuration order
 */
public record MemoryPoolStats(long registeredBytes, long maxRegisteredBytes, long leasedBytes, long freeBytes,
		long registrations, long deregistrations, long stagRotations, long leases, long leaseWaits,
		long exhaustionFailures, List<SizeClassStats> sizeClasses) {

	/**
	 * Takes an immutable copy of the class list.
	 */
	public MemoryPoolStats {
		sizeClasses = List.copyOf(sizeClasses);
	}

	/**
	 * The number of memory regions the pool holds now.
	 * @return {@code registrations - deregistrations}
	 */
	public long registeredRegions() {
		return this.registrations - this.deregistrations;
	}

	/**
	 * The snapshot of one class.
	 * @param name the class name, for example {@code receive-1KiB}
	 * @return the class's snapshot
	 * @throws NoSuchElementException if the pool has no such class
	 */
	public SizeClassStats sizeClass(String name) {
		for (SizeClassStats stats : this.sizeClasses) {
			if (stats.name().equals(name)) {
				return stats;
			}
		}
		throw new NoSuchElementException("The pool has no size class named " + name + "; its classes are "
				+ this.sizeClasses.stream().map(SizeClassStats::name).toList());
	}

	/**
	 * The snapshot of one class.
	 * @param role the class's role
	 * @param bufferSize the class's buffer size
	 * @return the class's snapshot
	 * @throws NoSuchElementException if the pool has no such class
	 */
	public SizeClassStats sizeClass(BufferRole role, int bufferSize) {
		return sizeClass(new SizeClass(role, bufferSize, 0, 1).name());
	}

}
