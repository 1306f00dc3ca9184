package io.rpcrdma.protocol;

import java.util.List;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrOverflowException;

/**
 * Writes transport headers of Version 1 (RFC 5666 §4.3) and Version 2
 * (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2) into an {@link XdrEncoder}, typically over a
 * pre-registered send buffer, allocating nothing.
 * <p>
 * The header's length is computed first and checked against the room left, so a header is
 * either written whole or not at all ({@link XdrOverflowException}). The RPC message, when one
 * follows, is the caller's to write after the header.
 */
public final class TransportHeaderEncoder {

	private TransportHeaderEncoder() {
	}

	/**
	 * Writes {@code header} at the encoder's position.
	 * @param header the header
	 * @param encoder the target
	 * @throws XdrOverflowException if the buffer lacks room for the whole header
	 */
	public static void encode(TransportHeader header, XdrEncoder encoder) {
		int length = encodedLength(header);
		if (length > encoder.remaining()) {
			throw new XdrOverflowException("RPC-over-RDMA " + header.getClass().getSimpleName() + " header", length,
					encoder.remaining());
		}
		// RFC 5666 §4.1: the four fixed words, identical in every version.
		encoder.writeInt(header.xid());
		encoder.writeInt(header.version());
		encoder.writeInt(header.credits());
		encoder.writeInt(header.procedure());
		if (header instanceof RdmaMsgp msgp) {
			// RFC 5666 §4.3 rpc_rdma_header_padded: align and thresh come before the lists.
			encoder.writeInt(msgp.align());
			encoder.writeInt(msgp.threshold());
			encodeChunkLists(msgp.chunkLists(), encoder);
		}
		else if (header instanceof ChunkedHeader chunked) {
			encodeChunkLists(chunked.chunkLists(), encoder);
		}
		else if (header instanceof ErrVers errVers) {
			encoder.writeInt(RpcRdmaConstants.ERR_VERS);
			encoder.writeInt(errVers.low());
			encoder.writeInt(errVers.high());
		}
		else if (header instanceof RdmaErrorHeader error) {
			// ERR_CHUNK, RDMA_ERR_BAD_HEADER, RDMA_ERR_INVAL_OPTION: void arms.
			encoder.writeInt(error.errorCode());
		}
		else if (header instanceof Rdma2Optional optional) {
			encoder.writeInt(optional.optionType());
			encoder.writeOpaque(optional.optionInfo());
		}
		// RdmaDone: void body.
	}

	/**
	 * Writes the read list, write list and reply chunk (RFC 5666 §4.3, the same in
	 * draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 {@code rpcrdma2_chunk_lists}).
	 * @param chunkLists the lists
	 * @param encoder the target
	 */
	public static void encodeChunkLists(ChunkLists chunkLists, XdrEncoder encoder) {
		// The read list is an XDR linked list (RFC 4506 §4.19): each entry is preceded by 1,
		// the end by 0.
		List<ReadSegment> readList = chunkLists.readList();
		for (int i = 0; i < readList.size(); i++) {
			ReadSegment entry = readList.get(i);
			encoder.writeInt(1);
			encoder.writeInt(entry.position());
			encodeSegment(entry.target(), encoder);
		}
		encoder.writeInt(0);
		List<WriteChunk> writeList = chunkLists.writeList();
		for (int i = 0; i < writeList.size(); i++) {
			encoder.writeInt(1);
			encodeWriteChunk(writeList.get(i), encoder);
		}
		encoder.writeInt(0);
		// The reply chunk is optional-data: 1 and the chunk, or 0.
		WriteChunk reply = chunkLists.replyChunk();
		if (reply == null) {
			encoder.writeInt(0);
		}
		else {
			encoder.writeInt(1);
			encodeWriteChunk(reply, encoder);
		}
	}

	private static void encodeWriteChunk(WriteChunk chunk, XdrEncoder encoder) {
		// xdr_write_chunk: a counted array of segments (RFC 4506 §4.13).
		List<RdmaSegment> segments = chunk.segments();
		encoder.writeInt(segments.size());
		for (int i = 0; i < segments.size(); i++) {
			encodeSegment(segments.get(i), encoder);
		}
	}

	private static void encodeSegment(RdmaSegment segment, XdrEncoder encoder) {
		encoder.writeInt(segment.handle());
		encoder.writeInt(segment.length());
		encoder.writeHyper(segment.offset());
	}

	/**
	 * @param header a header
	 * @return the bytes {@link #encode} writes for it
	 */
	public static int encodedLength(TransportHeader header) {
		long length = RpcRdmaConstants.FIXED_HEADER_LENGTH;
		if (header instanceof RdmaMsgp msgp) {
			length += 8 + encodedLength(msgp.chunkLists());
		}
		else if (header instanceof ChunkedHeader chunked) {
			length += encodedLength(chunked.chunkLists());
		}
		else if (header instanceof ErrVers) {
			length += 12;
		}
		else if (header instanceof RdmaErrorHeader) {
			length += 4;
		}
		else if (header instanceof Rdma2Optional optional) {
			length += 8 + Xdr.pad(optional.optionInfoLength());
		}
		return toInt(length);
	}

	/**
	 * @param chunkLists chunk lists
	 * @return the bytes {@link #encodeChunkLists} writes for them
	 */
	public static int encodedLength(ChunkLists chunkLists) {
		// Per read entry: discriminator + position + segment; three list terminators or
		// discriminators; per write chunk: discriminator + count + segments.
		long length = (long) chunkLists.readList().size() * (4 + RpcRdmaConstants.READ_SEGMENT_LENGTH) + 4;
		for (WriteChunk chunk : chunkLists.writeList()) {
			length += 8 + (long) chunk.segments().size() * RpcRdmaConstants.SEGMENT_LENGTH;
		}
		length += 4;
		length += 4;
		if (chunkLists.replyChunk() != null) {
			length += 4 + (long) chunkLists.replyChunk().segments().size() * RpcRdmaConstants.SEGMENT_LENGTH;
		}
		return toInt(length);
	}

	private static int toInt(long length) {
		if (length > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("Transport header of " + length + " bytes cannot be encoded");
		}
		return (int) length;
	}

}
