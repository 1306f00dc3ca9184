package io.rpcrdma.server;

/**
 * Counters of a {@link DuplicateRequestCache} since it was created.
 *
 * @param hits retransmissions answered with a cached reply
 * @param waits retransmissions that waited for the original, still executing, call
 * @param misses calls seen for the first time (executed)
 * @param evictions entries removed to respect the bounds (a requester's own, or those of one
 * holding at least two more entries)
 * @param expirations entries removed because their reply was older than the ttl
 * @param checksumMismatches calls that reused the xid of one of their own requester's entries
 * with different contents (dropped while that call ran, else replacing its entry)
 * @param uncached calls executed without protection (cache full of in-progress calls, or a
 * reply too large to keep)
 * @param dropped retransmissions dropped because enough others already waited, and calls
 * reusing the xid of their requester's running call
 * @param entries entries currently held
 */
public record DuplicateRequestCacheStats(long hits, long waits, long misses, long evictions, long expirations,
		long checksumMismatches, long uncached, long dropped, int entries) {
}
