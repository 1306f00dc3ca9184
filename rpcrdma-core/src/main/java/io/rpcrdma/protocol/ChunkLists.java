package io.rpcrdma.protocol;

import java.util.List;

/**
 * The three chunk lists of an RDMA_MSG, RDMA_NOMSG or RDMA_MSGP header (RFC 5666 §4.3
 * {@code rpc_rdma_header}) and of a Version Two RDMA_MSG or RDMA_NOMSG header
 * (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 {@code rpcrdma2_chunk_lists}), which share one
 * encoding: the read list, the write list, then the optional reply chunk.
 *
 * @param readList the read-list entries in wire order (group them with {@link #readChunks()})
 * @param writeList the write chunks, one per DDP-eligible result, in order
 * @param replyChunk the reply chunk (RFC 5666 §5.2), or {@code null} when absent
 */
public record ChunkLists(List<ReadSegment> readList, List<WriteChunk> writeList, WriteChunk replyChunk) {

	/** No read list, no write list, no reply chunk: the message is wholly inline. */
	public static final ChunkLists EMPTY = new ChunkLists(List.of(), List.of(), null);

	public ChunkLists {
		readList = List.copyOf(readList);
		writeList = List.copyOf(writeList);
	}

	/**
	 * Builds chunk lists from grouped Read chunks.
	 * @param readChunks the Read chunks, flattened in the given order
	 * @param writeList the write chunks
	 * @param replyChunk the reply chunk or {@code null}
	 * @return the chunk lists
	 */
	public static ChunkLists ofReadChunks(List<ReadChunk> readChunks, List<WriteChunk> writeList,
			WriteChunk replyChunk) {
		return new ChunkLists(ReadChunk.flatten(readChunks), writeList, replyChunk);
	}

	/** @return the read list grouped into Read chunks by position (RFC 8166 §3.4.5) */
	public List<ReadChunk> readChunks() {
		return ReadChunk.group(this.readList);
	}

	/** @return whether a reply chunk is present */
	public boolean hasReplyChunk() {
		return this.replyChunk != null;
	}

	/**
	 * Tells whether the read list has an entry at position zero, that is a Position-Zero Read
	 * chunk conveying the whole RPC message (RFC 5666 §5.1, RFC 8166 §3.5.3).
	 * @return {@code true} if some read segment has position zero
	 */
	public boolean hasPositionZeroReadChunk() {
		for (ReadSegment segment : this.readList) {
			if (segment.position() == 0) {
				return true;
			}
		}
		return false;
	}

	/** @return whether all three lists are absent */
	public boolean isEmpty() {
		return this.readList.isEmpty() && this.writeList.isEmpty() && this.replyChunk == null;
	}

}
