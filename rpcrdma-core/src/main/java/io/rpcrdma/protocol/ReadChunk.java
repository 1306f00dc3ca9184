package io.rpcrdma.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Read chunk (RFC 8166 §3.4.5): the read segments of a read list that share one XDR
 * position. RFC 5666 §4.3 encodes the read list as a flat linked list of (position, segment)
 * entries; RFC 8166 §3.4.5 clarifies that all entries with the same position together convey
 * one data item, their segments concatenated in list order. This type is that grouped view;
 * the wire form stays the flat list of {@link ReadSegment}s in {@link ChunkLists#readList()}.
 *
 * @param position the XDR position of the data item (unsigned); zero for a Position-Zero Read
 * chunk carrying the whole RPC message (RFC 5666 §5.1)
 * @param segments the segments in the order the data is concatenated, at least one
 */
public record ReadChunk(int position, List<RdmaSegment> segments) {

	public ReadChunk {
		segments = List.copyOf(segments);
		if (segments.isEmpty()) {
			throw new IllegalArgumentException("A read chunk needs at least one segment (RFC 8166 §3.4.5)");
		}
	}

	/** @return the total number of bytes the chunk conveys, the sum of its unsigned segment lengths */
	public long totalLength() {
		long total = 0;
		for (RdmaSegment segment : this.segments) {
			total += segment.unsignedLength();
		}
		return total;
	}

	/** @return {@code true} for a Position-Zero Read chunk (RFC 5666 §5.1, RFC 8166 §3.5.3) */
	public boolean isPositionZero() {
		return this.position == 0;
	}

	/**
	 * Groups read-list entries into Read chunks by position (RFC 8166 §3.4.5). Chunks come out
	 * in ascending (unsigned) position order; within a chunk, segments keep their read-list
	 * order, which is the order their data is concatenated. Entries of one position need not
	 * be adjacent in the list, as the RFC does not require it.
	 * @param readList a read list in wire order
	 * @return the chunks, empty for an empty list
	 */
	public static List<ReadChunk> group(List<ReadSegment> readList) {
		if (readList.isEmpty()) {
			return List.of();
		}
		List<ReadSegment> sorted = new ArrayList<>(readList);
		// List.sort is stable, so segments of one position keep their list order.
		sorted.sort((a, b) -> Integer.compareUnsigned(a.position(), b.position()));
		List<ReadChunk> chunks = new ArrayList<>();
		int start = 0;
		for (int i = 1; i <= sorted.size(); i++) {
			if (i == sorted.size() || sorted.get(i).position() != sorted.get(start).position()) {
				List<RdmaSegment> segments = new ArrayList<>(i - start);
				for (int j = start; j < i; j++) {
					segments.add(sorted.get(j).target());
				}
				chunks.add(new ReadChunk(sorted.get(start).position(), segments));
				start = i;
			}
		}
		return List.copyOf(chunks);
	}

	/**
	 * Flattens Read chunks into the read-list entries a transport header carries, chunk by
	 * chunk, each segment tagged with its chunk's position.
	 * @param chunks the chunks
	 * @return the read list
	 */
	public static List<ReadSegment> flatten(List<ReadChunk> chunks) {
		List<ReadSegment> list = new ArrayList<>();
		for (ReadChunk chunk : chunks) {
			Objects.requireNonNull(chunk, "read chunk must not be null");
			for (RdmaSegment segment : chunk.segments()) {
				list.add(new ReadSegment(chunk.position(), segment));
			}
		}
		return List.copyOf(list);
	}

}
