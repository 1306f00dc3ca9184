package io.rpcrdma.verbs.siw;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.soft.SoftwareMemoryRegion;

/**
 * Walks a scatter/gather list in order, for placing the segments of one incoming message
 * (RFC 5041 §5: segments of a message arrive in order over TCP) or for gathering an
 * outgoing one. Reusable and allocation-free; the entries must have been checked with
 * {@link io.rpcrdma.verbs.soft.MemoryRegionTable#checkLocalAccess(List, boolean, io.rpcrdma.verbs.ProtectionDomain)}.
 * <p>
 * Given the keys the entries had when their work request went out (an RDMA Read's sink), it
 * writes a piece only while its region still has that key, valid, holding the region's monitor,
 * which invalidation and re-registration take too: a sink released and re-registered, or
 * invalidated, since the Read Request went out receives nothing (RFC 5041 §7).
 */
final class SgCursor {

	private List<ScatterGatherEntry> sgList;

	private int index;

	private int used;

	private long position;

	private long capacity;

	private int[] keys;

	void reset(List<ScatterGatherEntry> entries) {
		reset(entries, null);
	}

	/**
	 * @param entries the list
	 * @param entryKeys the lkey each entry must still have to be written, or {@code null} for
	 * entries checked when taken (posted receives, gathered sources)
	 */
	void reset(List<ScatterGatherEntry> entries, int[] entryKeys) {
		this.sgList = entries;
		this.keys = entryKeys;
		this.index = 0;
		this.used = 0;
		this.position = 0;
		long total = 0;
		for (int i = 0; i < entries.size(); i++) {
			total += entries.get(i).length();
		}
		this.capacity = total;
	}

	void clear() {
		this.sgList = null;
		this.keys = null;
	}

	/** @return bytes placed or gathered so far */
	long position() {
		return this.position;
	}

	/** @return the total length of the list */
	long capacity() {
		return this.capacity;
	}

	/**
	 * Copies bytes into the list at the current position.
	 * @param source where the bytes are
	 * @param offset the first byte in {@code source}
	 * @param length the byte count, at most {@code capacity() - position()}
	 * @return {@code false} if an entry's region no longer has its key: nothing was copied into
	 * it, and the list must not be written any more
	 */
	boolean place(ByteBuffer source, int offset, int length) {
		int done = 0;
		while (done < length) {
			ScatterGatherEntry sge = this.sgList.get(this.index);
			int room = sge.length() - this.used;
			if (room == 0) {
				this.index++;
				this.used = 0;
				continue;
			}
			int n = Math.min(room, length - done);
			if (this.keys == null) {
				memory(sge).put(sge.offset() + this.used, source, offset + done, n);
			}
			else {
				SoftwareMemoryRegion region = region(sge);
				synchronized (region) {
					if (!holdsKey(region, this.keys[this.index])) {
						return false;
					}
					region.memory().put(sge.offset() + this.used, source, offset + done, n);
				}
			}
			this.used += n;
			this.position += n;
			done += n;
		}
		return true;
	}

	/**
	 * Whether a region still has a key, valid: call holding the region's monitor, which its
	 * invalidation and re-registration take, so that the answer holds while the caller copies.
	 * @param region the region
	 * @param key the key it had
	 * @return {@code true} if bytes may be placed into it for that key
	 */
	static boolean holdsKey(SoftwareMemoryRegion region, int key) {
		return region.lkey() == key && region.isValid();
	}

	/**
	 * The contiguous piece of local memory at the current position, for gathering: at most
	 * {@code max} bytes, never crossing an entry.
	 * @param max the most bytes wanted
	 * @return the byte count of the piece (0 at the end); read it with {@link #pieceMemory()}
	 * and {@link #pieceOffset()}, then {@link #advance(int)}
	 */
	int piece(int max) {
		while (this.index < this.sgList.size() && this.sgList.get(this.index).length() == this.used) {
			this.index++;
			this.used = 0;
		}
		if (this.index == this.sgList.size()) {
			return 0;
		}
		return Math.min(max, this.sgList.get(this.index).length() - this.used);
	}

	ByteBuffer pieceMemory() {
		return memory(this.sgList.get(this.index));
	}

	/** @return the region of the piece {@link #piece(int)} found */
	SoftwareMemoryRegion pieceRegion() {
		return region(this.sgList.get(this.index));
	}

	/** @return the key the piece's region must still have: the one given, or its current one */
	int pieceKey() {
		return (this.keys != null) ? this.keys[this.index] : pieceRegion().lkey();
	}

	int pieceOffset() {
		return this.sgList.get(this.index).offset() + this.used;
	}

	void advance(int length) {
		this.used += length;
		this.position += length;
	}

	/**
	 * Moves back (or on) to a position of a gathered list, as {@link #piece(int)} and
	 * {@link #advance(int)} from its start would.
	 * @param target the position, at most {@code capacity()}
	 */
	void seek(long target) {
		this.index = 0;
		this.used = 0;
		this.position = 0;
		while (this.position < target) {
			int n = piece((int) Math.min(target - this.position, Integer.MAX_VALUE));
			if (n == 0) {
				return;
			}
			advance(n);
		}
	}

	private static ByteBuffer memory(ScatterGatherEntry sge) {
		return region(sge).memory();
	}

	private static SoftwareMemoryRegion region(ScatterGatherEntry sge) {
		return (SoftwareMemoryRegion) sge.region();
	}

}
