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
 */
final class SgCursor {

	private List<ScatterGatherEntry> sgList;

	private int index;

	private int used;

	private long position;

	private long capacity;

	void reset(List<ScatterGatherEntry> entries) {
		this.sgList = entries;
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
	 */
	void place(ByteBuffer source, int offset, int length) {
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
			memory(sge).put(sge.offset() + this.used, source, offset + done, n);
			this.used += n;
			done += n;
		}
		this.position += length;
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

	int pieceOffset() {
		return this.sgList.get(this.index).offset() + this.used;
	}

	void advance(int length) {
		this.used += length;
		this.position += length;
	}

	private static ByteBuffer memory(ScatterGatherEntry sge) {
		return ((SoftwareMemoryRegion) sge.region()).memory();
	}

}
