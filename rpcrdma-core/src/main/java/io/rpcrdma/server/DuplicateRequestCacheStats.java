package io.rpcrdma.server;

/**
 * Counters of a {@link DuplicateRequestCache} since it was created.
 *
 * @param hits retransmissions answered with a cached reply
 * @param waits retransmissions that waited for the original, still executing, call
 * @param misses calls seen for the first time (executed)
 * @param evictions entries removed to respect the bounds
 * @param expirations entries removed because their reply was older than the ttl
 * @param checksumMismatches calls that reused a cached xid with different contents
 * @param uncached calls executed without protection (cache full of in-progress calls, or a
 * reply too large to keep)
 * @param dropped retransmissions dropped because enough others already waited
 * @param entries entries currently held
 */
public record DuplicateRequestCacheStats(long hits, long waits, long misses, long evictions, long expirations,
		long checksumMismatches, long uncached, long dropped, int entries) {
}
