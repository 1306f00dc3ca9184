package io.rpcrdma.memory;

/**
 * A snapshot of one size class of a {@link RegisteredMemoryPool}.
 *
 * @param name the class name, for example {@code write-chunk-64KiB}
 * @param role what the buffers are for
 * @param bufferSize the buffer size in bytes
 * @param buffers the number of buffers registered (0 once the pool is closed)
 * @param leased the number of buffers leased now
 * @param free the number of registered buffers not leased
 * @param registeredBytes {@code buffers * bufferSize}
 * @param leasedBytes {@code leased * bufferSize}
 * @param leases the number of leases granted since the pool started
 * @param leaseWaits the number of leases that had to wait for a release
 * @param exhaustionFailures the number of leases that failed (timed out, or
 * {@code tryLease} found nothing)
 */
public record SizeClassStats(String name, BufferRole role, int bufferSize, int buffers, int leased, int free,
		long registeredBytes, long leasedBytes, long leases, long leaseWaits, long exhaustionFailures) {

	/**
	 * The bytes registered and not leased.
	 * @return {@code free * bufferSize}
	 */
	public long freeBytes() {
		return (long) this.free * this.bufferSize;
	}

}
