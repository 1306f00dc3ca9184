package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.WriteChunk;

/**
 * Checks received chunk lists and puts Read chunks back into the Payload stream (RFC 8166
 * §3.4.4 and §3.4.5, RFC 5666 §3.4 and §3.7).
 */
final class ChunkAssembler {

	private ChunkAssembler() {
	}

	/**
	 * Rejects segments that overlap one another (same STag, intersecting byte ranges): a
	 * peer that advertises the same memory twice would have data placed over other data
	 * (RFC 8166 §3.4.6 asks that chunks not overlap).
	 * @param lists the received chunk lists
	 */
	static void checkNoOverlap(ChunkLists lists) {
		List<RdmaSegment> all = new ArrayList<>();
		for (ReadSegment segment : lists.readList()) {
			all.add(segment.target());
		}
		for (WriteChunk chunk : lists.writeList()) {
			all.addAll(chunk.segments());
		}
		if (lists.replyChunk() != null) {
			all.addAll(lists.replyChunk().segments());
		}
		if (all.size() < 2) {
			return;
		}
		all.removeIf((segment) -> segment.length() == 0);
		all.sort(Comparator.comparingInt(RdmaSegment::handle).thenComparing(RdmaSegment::offset, Long::compareUnsigned));
		for (int i = 1; i < all.size(); i++) {
			RdmaSegment previous = all.get(i - 1);
			RdmaSegment next = all.get(i);
			if (previous.handle() == next.handle()
					&& Long.compareUnsigned(next.offset() - previous.offset(), previous.unsignedLength()) < 0) {
				throw new ChunkValidationException(previous + " and " + next + " overlap");
			}
		}
	}

	/**
	 * Rebuilds the XDR stream: the Payload stream with each Read chunk's data inserted at its
	 * position, followed by the XDR roundup the sender left out (RFC 5666 §3.7).
	 * @param inline the Payload stream (or the Position-Zero Read chunk's data)
	 * @param chunks the Read chunks at positions other than zero, in increasing position
	 * @param data each chunk's data, all its segments concatenated
	 * @param checkLengthWords whether the four bytes before each position must equal the
	 * chunk's length (the XDR length of the opaque it carries)
	 * @return the whole RPC message
	 */
	static ByteBuffer reassemble(ByteBuffer inline, List<ReadChunk> chunks, ByteBuffer[] data,
			boolean checkLengthWords) {
		long total = inline.remaining();
		for (ByteBuffer chunk : data) {
			total += padded(chunk.remaining());
		}
		if (total > Integer.MAX_VALUE - 8) {
			throw new ChunkValidationException("The reassembled message would be " + total + " bytes long");
		}
		ByteBuffer out = ByteBuffer.allocate((int) total);
		ByteBuffer in = inline.duplicate();
		long previousPosition = -1;
		for (int i = 0; i < chunks.size(); i++) {
			long position = Integer.toUnsignedLong(chunks.get(i).position());
			if ((position & 3) != 0) {
				throw new ChunkValidationException("Read chunk position " + position
						+ " is not a multiple of four (RFC 8166 §3.4.4: XDR alignment)");
			}
			if (position == previousPosition) {
				throw new ChunkValidationException("Two Read chunks share position " + position);
			}
			previousPosition = position;
			long gap = position - out.position();
			if (gap < 0 || gap > in.remaining()) {
				throw new ChunkValidationException("Read chunk position " + position + " lies outside the XDR stream ("
						+ out.position() + " bytes rebuilt, " + in.remaining() + " inline bytes left)");
			}
			int take = (int) gap;
			ByteBuffer slice = in.slice(in.position(), take);
			out.put(slice);
			in.position(in.position() + take);
			int length = data[i].remaining();
			if (checkLengthWords) {
				if (position < 4 || out.getInt((int) position - 4) != length) {
					throw new ChunkValidationException("Read chunk at position " + position + " carries " + length
							+ " bytes but the XDR length word before it says "
							+ ((position < 4) ? "nothing" : Integer.toUnsignedString(out.getInt((int) position - 4))));
				}
			}
			out.put(data[i].duplicate());
			for (int pad = padded(length) - length; pad > 0; pad--) {
				out.put((byte) 0);
			}
		}
		out.put(in);
		out.flip();
		return out;
	}

	/** Chunk lists, without allocating for the common case of none. */
	static ChunkLists lists(List<ReadSegment> reads, List<WriteChunk> writes, WriteChunk reply) {
		if (reads.isEmpty() && writes.isEmpty() && reply == null) {
			return ChunkLists.EMPTY;
		}
		return new ChunkLists(reads, writes, reply);
	}

	static int padded(int length) {
		return (length + 3) & ~3;
	}

	static long totalLength(List<RdmaSegment> segments) {
		long total = 0;
		for (RdmaSegment segment : segments) {
			total += segment.unsignedLength();
		}
		return total;
	}

	static List<ReadChunk> nonZeroPositions(List<ReadChunk> chunks) {
		List<ReadChunk> result = new ArrayList<>(chunks.size());
		for (ReadChunk chunk : chunks) {
			if (!chunk.isPositionZero()) {
				result.add(chunk);
			}
		}
		return result;
	}

}
