package io.rpcrdma.server;

/**
 * One peer's part of a {@link DuplicateRequestCache}: how many entries it holds (calls still
 * running and cached replies) and its cached replies, oldest first, so that the room it is
 * made to give up is its own oldest reply. Guarded by the cache's lock.
 */
final class PeerShare {

	/** The owner: a {@link RequesterAddress}, or whatever key the dispatcher was given. */
	final Object peer;

	/** Entries held, running calls included. */
	int entries;

	/** Cached replies held: the length of the list from {@link #oldest} to {@link #newest}. */
	int replies;

	DuplicateRequestCache.Entry oldest;

	DuplicateRequestCache.Entry newest;

	/** Neighbours among the shares holding as many replies, in {@link PeerShares}' levels. */
	PeerShare levelPrev;

	PeerShare levelNext;

	PeerShare(Object peer) {
		this.peer = peer;
	}

	/** Adds a reply just cached, the newest. */
	void append(DuplicateRequestCache.Entry entry) {
		entry.peerPrev = this.newest;
		if (this.newest != null) {
			this.newest.peerNext = entry;
		}
		else {
			this.oldest = entry;
		}
		this.newest = entry;
		this.replies++;
	}

	/** Removes a cached reply. */
	void unlink(DuplicateRequestCache.Entry entry) {
		if (entry.peerPrev != null) {
			entry.peerPrev.peerNext = entry.peerNext;
		}
		else {
			this.oldest = entry.peerNext;
		}
		if (entry.peerNext != null) {
			entry.peerNext.peerPrev = entry.peerPrev;
		}
		else {
			this.newest = entry.peerPrev;
		}
		entry.peerPrev = entry.peerNext = null;
		this.replies--;
	}

	@Override
	public String toString() {
		return "DRC share of " + this.peer + ": " + this.entries + " entries, " + this.replies + " replies";
	}

}
