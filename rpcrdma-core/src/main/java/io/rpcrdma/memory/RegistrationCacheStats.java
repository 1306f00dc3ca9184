package io.rpcrdma.memory;

/**
 * A snapshot of a {@link RegistrationCache}'s counters, taken under its lock.
 *
 * @param hits acquisitions served by a cached registration
 * @param misses acquisitions that had to register
 * @param evictions idle entries deregistered to stay within the bounds
 * @param entries the entries held now, idle or in use
 * @param inUse the entries with at least one unreleased {@link CachedRegistration}
 * @param registeredBytes the bytes the entries register
 * @param registrations the registrations made since the cache was created
 * @param deregistrations the deregistrations made since the cache was created
 * @param stagRotations the STags replaced on the last release of a remotely accessible entry
 * @param maxEntries the entry bound
 * @param maxBytes the byte bound
 */
public record RegistrationCacheStats(long hits, long misses, long evictions, int entries, int inUse,
		long registeredBytes, long registrations, long deregistrations, long stagRotations, int maxEntries,
		long maxBytes) {

	/**
	 * The share of acquisitions served from the cache.
	 * @return hits divided by all acquisitions, or 0 before the first
	 */
	public double hitRatio() {
		long total = this.hits + this.misses;
		return (total == 0) ? 0 : (double) this.hits / total;
	}

}
