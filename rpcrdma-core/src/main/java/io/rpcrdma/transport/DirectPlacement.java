package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.protocol.ReadChunk;

/**
 * Where each byte of a call with Read chunks lands when the whole RPC message is rebuilt in
 * one registered buffer: the Payload stream's fragments are copied to their final offsets
 * and each Read chunk's data is RDMA-Read straight to its XDR position (RFC 8166 §3.4.4),
 * followed by the XDR roundup the requester left out (RFC 5666 §3.7). The upper layer then
 * reads bulk arguments as views of registered memory, without a copy.
 * <p>
 * The positions are checked the way {@link ChunkAssembler#reassemble} checks them, but
 * before any RDMA Read is posted: a requester whose positions or lengths disagree with the
 * XDR stream gets an error reply and no Read is issued.
 */
final class DirectPlacement {

	private final int length;

	private final int[] chunkOffsets;

	private DirectPlacement(int length, int[] chunkOffsets) {
		this.length = length;
		this.chunkOffsets = chunkOffsets;
	}

	/** @return the rebuilt message's length */
	int length() {
		return this.length;
	}

	/**
	 * @param index a Read chunk
	 * @return where its data starts in the message
	 */
	int chunkOffset(int index) {
		return this.chunkOffsets[index];
	}

	/**
	 * The placement of a lone Position-Zero Read chunk: it carries the whole message.
	 * @param chunk the chunk
	 * @param maxLength the largest message that can be placed
	 * @return the plan, or {@code null} if the message would exceed {@code maxLength}
	 */
	static DirectPlacement positionZero(ReadChunk chunk, int maxLength) {
		return (chunk.totalLength() > maxLength) ? null : new DirectPlacement((int) chunk.totalLength(), new int[] { 0 });
	}

	/**
	 * Plans the message for Read chunks at non-zero positions around a Payload stream.
	 * @param inline the Payload stream
	 * @param chunks the Read chunks, none at position zero
	 * @param checkLengthWords whether the four inline bytes before each position must equal
	 * the chunk's length (the XDR length word of the opaque it carries)
	 * @param maxLength the largest message that can be placed (the largest local buffer)
	 * @return the plan, or {@code null} if the message would exceed {@code maxLength}
	 * @throws ChunkValidationException if a position is misaligned, repeated, out of order or
	 * outside the stream, or a length word disagrees
	 */
	static DirectPlacement plan(ByteBuffer inline, List<ReadChunk> chunks, boolean checkLengthWords, int maxLength) {
		long total = inline.remaining();
		for (ReadChunk chunk : chunks) {
			total += (chunk.totalLength() + 3) & ~3L;
		}
		if (total > maxLength) {
			return null;
		}
		int[] offsets = new int[chunks.size()];
		long rebuilt = 0;
		long consumed = 0;
		long previousPosition = -1;
		int base = inline.position();
		for (int i = 0; i < chunks.size(); i++) {
			ReadChunk chunk = chunks.get(i);
			long position = Integer.toUnsignedLong(chunk.position());
			if (position == 0 || (position & 3) != 0) {
				throw new ChunkValidationException("Read chunk position " + position
						+ " is zero or not a multiple of four (RFC 8166 §3.4.4: XDR alignment)");
			}
			if (position == previousPosition) {
				throw new ChunkValidationException("Two Read chunks share position " + position);
			}
			previousPosition = position;
			long gap = position - rebuilt;
			if (gap < 0 || gap > inline.remaining() - consumed) {
				throw new ChunkValidationException("Read chunk position " + position + " lies outside the XDR stream ("
						+ rebuilt + " bytes rebuilt, " + (inline.remaining() - consumed) + " inline bytes left)");
			}
			long length = chunk.totalLength();
			if (checkLengthWords) {
				// The length word precedes the opaque's data in the Payload stream.
				int word = (gap >= 4) ? inline.getInt(base + (int) (consumed + gap - 4)) : -1;
				if (gap < 4 || Integer.toUnsignedLong(word) != length) {
					throw new ChunkValidationException("Read chunk at position " + position + " carries " + length
							+ " bytes but the XDR length word before it says "
							+ ((gap < 4) ? "nothing" : Integer.toUnsignedString(word)));
				}
			}
			consumed += gap;
			offsets[i] = (int) position;
			rebuilt = position + ((length + 3) & ~3L);
		}
		return new DirectPlacement((int) total, offsets);
	}

	/**
	 * Copies the Payload stream's fragments to their final offsets and zeroes each chunk's
	 * XDR roundup; the chunks' data is left for the RDMA Reads.
	 * @param inline the Payload stream the plan was made for
	 * @param chunks the same chunks
	 * @param target the message buffer, at least {@link #length()} bytes from index 0
	 */
	void copyInline(ByteBuffer inline, List<ReadChunk> chunks, ByteBuffer target) {
		int from = inline.position();
		int to = 0;
		for (int i = 0; i < chunks.size(); i++) {
			int take = this.chunkOffsets[i] - to;
			target.put(to, inline, from, take);
			from += take;
			int length = (int) chunks.get(i).totalLength();
			int end = this.chunkOffsets[i] + length;
			for (int pad = ChunkAssembler.padded(length) - length; pad > 0; pad--) {
				target.put(end++, (byte) 0);
			}
			to = end;
		}
		target.put(to, inline, from, inline.limit() - from);
	}

}
