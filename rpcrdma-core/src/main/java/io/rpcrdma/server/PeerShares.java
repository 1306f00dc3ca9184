package io.rpcrdma.server;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The peers holding entries in a {@link DuplicateRequestCache}, and which of them holds the
 * most cached replies: the one a peer takes room from when the cache is full. Taking only
 * from a peer holding more than oneself makes the cache's room a per-peer share
 * (ARCHITECTURE.md, "Memory": every budget gives each peer a bounded share): a peer flooding
 * the cache ends up evicting its own replies, never those of a peer holding fewer.
 * <p>
 * Shares holding replies sit in levels by their number of replies, so the fullest is found,
 * and a share moved when its count changes by one, without a search. Guarded by the cache's
 * lock.
 */
final class PeerShares {

	private final Map<Object, PeerShare> byPeer = new HashMap<>();

	/** {@code levels[n]}: the first of the shares holding {@code n} replies ({@code n >= 1}). */
	private PeerShare[] levels = new PeerShare[8];

	/** The highest level not empty; 0 when no share holds a reply. */
	private int top;

	/** @return the peer's share, or {@code null} if it holds no entry */
	PeerShare of(Object peer) {
		return this.byPeer.get(peer);
	}

	/** @return the peer's share, made empty if it held none */
	PeerShare join(Object peer) {
		return this.byPeer.computeIfAbsent(peer, PeerShare::new);
	}

	/** Forgets a share that holds no entry any more. */
	void leaveIfEmpty(PeerShare share) {
		if (share.entries == 0) {
			this.byPeer.remove(share.peer, share);
		}
	}

	/** @return the share holding the most replies, or {@code null} if none holds any */
	PeerShare fullest() {
		return (this.top > 0) ? this.levels[this.top] : null;
	}

	/** @return the number of peers holding entries */
	int peers() {
		return this.byPeer.size();
	}

	/** Caches a reply of the share's: appended to its list, the share moved up a level. */
	void replyCached(PeerShare share, DuplicateRequestCache.Entry entry) {
		int from = share.replies;
		share.append(entry);
		moved(share, from);
	}

	/** Removes a cached reply of the share's: the share moved down a level. */
	void replyRemoved(PeerShare share, DuplicateRequestCache.Entry entry) {
		int from = share.replies;
		share.unlink(entry);
		moved(share, from);
	}

	private void moved(PeerShare share, int from) {
		if (from > 0) {
			unlinkFrom(share, from);
		}
		int to = share.replies;
		if (to > 0) {
			linkInto(share, to);
			this.top = Math.max(this.top, to);
		}
		// A count changes by one, so this stops at the share's new level, or at 0 from level 1.
		while (this.top > 0 && this.levels[this.top] == null) {
			this.top--;
		}
	}

	private void linkInto(PeerShare share, int level) {
		if (level >= this.levels.length) {
			this.levels = Arrays.copyOf(this.levels, Math.max(level + 1, this.levels.length * 2));
		}
		PeerShare first = this.levels[level];
		share.levelPrev = null;
		share.levelNext = first;
		if (first != null) {
			first.levelPrev = share;
		}
		this.levels[level] = share;
	}

	private void unlinkFrom(PeerShare share, int level) {
		if (share.levelPrev != null) {
			share.levelPrev.levelNext = share.levelNext;
		}
		else {
			this.levels[level] = share.levelNext;
		}
		if (share.levelNext != null) {
			share.levelNext.levelPrev = share.levelPrev;
		}
		share.levelPrev = share.levelNext = null;
	}

}
