package io.rpcrdma.protocol;

import io.rpcrdma.oncrpc.VersionRange;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrLimitExceededException;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * Decodes and validates a received transport header, Version 1 (RFC 5666 §4.3, RFC 8166 §4.1.2)
 * or Version 2 (draft-cel-nfsv4-rpcrdma-version-two-00 §4.2), into a typed
 * {@link HeaderDecodeResult}, applying the checks RFC 5666 §4.2 and RFC 8166 §4.5 ask of a
 * receiver before it trusts a header:
 * <ul>
 * <li>rdma_vers is read at its fixed offset (RFC 5666 §4.1) and compared with the supported
 * versions first, so an unknown version is reported as such, never as a malformed header;</li>
 * <li>the body must decode exactly per the version's XDR: known procedure and error code, list
 * discriminators 0 or 1, nothing truncated;</li>
 * <li>every count and length is checked against {@link HeaderLimits} and against the bytes that
 * remain <em>before</em> anything is allocated from it; read lists, which carry no count, are cut
 * off as soon as they pass the limits while being walked; byte totals are summed as unsigned
 * 64-bit values, which cannot overflow;</li>
 * <li>RDMA_MSG and RDMA_MSGP must be followed by an RPC message whose XID equals rdma_xid
 * (RFC 5666 §4.1, RFC 8166 §4.5.2); RDMA_NOMSG must say where its RPC message is; procedures
 * after which no RPC message may follow must end the Send.</li>
 * </ul>
 * A decoder is immutable and thread-safe; it allocates the records it returns and nothing
 * proportional to a count before that count was checked.
 */
public final class TransportHeaderDecoder {

	private final HeaderLimits limits;

	private final VersionRange supportedVersions;

	/** A decoder with {@link HeaderLimits#DEFAULTS} accepting Versions 1 and 2. */
	public TransportHeaderDecoder() {
		this(HeaderLimits.DEFAULTS, VersionRange.VERSIONS_1_AND_2);
	}

	/**
	 * @param limits what this receiver accepts
	 * @param supportedVersions the versions this receiver speaks, within 1 and 2
	 */
	public TransportHeaderDecoder(HeaderLimits limits, VersionRange supportedVersions) {
		this.limits = Objects.requireNonNull(limits, "limits must not be null");
		this.supportedVersions = Objects.requireNonNull(supportedVersions, "supportedVersions must not be null");
		if (!VersionRange.VERSIONS_1_AND_2.contains(supportedVersions.low())
				|| !VersionRange.VERSIONS_1_AND_2.contains(supportedVersions.high())) {
			throw new IllegalArgumentException("Only RPC-over-RDMA versions 1 and 2 can be decoded, not " + supportedVersions);
		}
	}

	/** @return the limits applied */
	public HeaderLimits limits() {
		return this.limits;
	}

	/** @return the versions accepted */
	public VersionRange supportedVersions() {
		return this.supportedVersions;
	}

	/**
	 * Decodes the message between the buffer's position and limit; on success the buffer's
	 * position is left at the RPC message.
	 * @param received the received bytes
	 * @return the result
	 */
	public HeaderDecodeResult decode(ByteBuffer received) {
		return decode(new XdrDecoder(received));
	}

	/**
	 * Decodes the message from the decoder's position to its limit. On a {@link HeaderDecodeResult.Valid}
	 * result the decoder is positioned at the RPC message; otherwise its position is undefined.
	 * @param in the received bytes
	 * @return the result
	 */
	public HeaderDecodeResult decode(XdrDecoder in) {
		int received = in.remaining();
		if (received < 8) {
			return new HeaderDecodeResult.Unidentified(received);
		}
		int xid = in.readInt();
		int version = in.readInt();
		if (!this.supportedVersions.contains(version)) {
			return decodeUnsupportedVersion(in, xid, version);
		}
		try {
			require(in, 8, "rdma_credit and rdma_proc");
			int credits = in.readInt();
			int procedure = in.readInt();
			TransportHeader header = (version == RpcRdmaConstants.VERSION_1) ? decodeVersion1(in, xid, credits, procedure)
					: decodeVersion2(in, xid, credits, procedure);
			checkMessageLocation(header);
			checkPayload(in, header);
			return new HeaderDecodeResult.Valid(header, in.position(), in.remaining());
		}
		catch (MalformedHeaderException ex) {
			return new HeaderDecodeResult.Malformed(xid, version, ex.fault(), ex.getMessage());
		}
		catch (XdrTruncatedException ex) {
			// A safety net: every read above is preceded by an explicit length check.
			return new HeaderDecodeResult.Malformed(xid, version, HeaderFault.TRUNCATED, ex.getMessage());
		}
	}

	/**
	 * RFC 5666 §4.1 keeps xid, vers, credit, proc and the start of the body at fixed offsets
	 * in all versions precisely so that ERR_VERS can be read whatever rdma_vers it carries: a
	 * responder may put in any version it supports (RFC 5666 §4.2). Such a reply is decoded;
	 * anything else of an unsupported version is reported as unsupported.
	 */
	private HeaderDecodeResult decodeUnsupportedVersion(XdrDecoder in, int xid, int version) {
		if (in.remaining() == 20) {
			int credits = in.readInt();
			int procedure = in.readInt();
			int error = in.readInt();
			int low = in.readInt();
			int high = in.readInt();
			if (procedure == RpcRdmaConstants.RDMA_ERROR && error == RpcRdmaConstants.ERR_VERS
					&& Integer.compareUnsigned(low, high) <= 0) {
				ErrVers errVers = new ErrVers(xid, version, credits, low, high);
				return new HeaderDecodeResult.Valid(errVers, in.position(), 0);
			}
		}
		return new HeaderDecodeResult.UnsupportedVersion(xid, version);
	}

	private TransportHeader decodeVersion1(XdrDecoder in, int xid, int credits, int procedure) {
		switch (procedure) {
			case RpcRdmaConstants.RDMA_MSG:
				return new RdmaMsg(xid, credits, decodeChunkLists(in));
			case RpcRdmaConstants.RDMA_NOMSG:
				return new RdmaNomsg(xid, credits, decodeChunkLists(in));
			case RpcRdmaConstants.RDMA_MSGP:
				// RFC 8166 §4.6.1 deprecates RDMA_MSGP; it is still understood so that
				// RFC 5666 peers interoperate. Whether to answer it is the transport's choice.
				require(in, 8, "RDMA_MSGP rdma_align and rdma_thresh");
				int align = in.readInt();
				int threshold = in.readInt();
				return new RdmaMsgp(xid, credits, align, threshold, decodeChunkLists(in));
			case RpcRdmaConstants.RDMA_DONE:
				return new RdmaDone(xid, credits);
			case RpcRdmaConstants.RDMA_ERROR:
				require(in, 4, "RDMA_ERROR rdma_err");
				int error = in.readInt();
				if (error == RpcRdmaConstants.ERR_VERS) {
					return decodeErrVers(in, xid, RpcRdmaConstants.VERSION_1, credits);
				}
				if (error == RpcRdmaConstants.ERR_CHUNK) {
					return new RdmaErrChunk(xid, credits);
				}
				// RFC 5666 §4.3 had a default arm of eight words for future codes; RFC 8166
				// §4.2 removed it and no other code was ever defined, so any other is an error.
				throw new MalformedHeaderException(HeaderFault.UNKNOWN_ERROR_CODE,
						"Version 1 RDMA_ERROR has unknown rdma_err " + Integer.toUnsignedString(error)
								+ "; only ERR_VERS (1) and ERR_CHUNK (2) exist");
			default:
				throw new MalformedHeaderException(HeaderFault.UNKNOWN_PROCEDURE,
						"Version 1 rdma_proc " + Integer.toUnsignedString(procedure)
								+ " is not RDMA_MSG, RDMA_NOMSG, RDMA_MSGP, RDMA_DONE or RDMA_ERROR (0 to 4)");
		}
	}

	private TransportHeader decodeVersion2(XdrDecoder in, int xid, int credits, int procedure) {
		switch (procedure) {
			case RpcRdmaConstants.RDMA_MSG:
				return new Rdma2Msg(xid, credits, decodeChunkLists(in));
			case RpcRdmaConstants.RDMA_NOMSG:
				return new Rdma2Nomsg(xid, credits, decodeChunkLists(in));
			case RpcRdmaConstants.RDMA_MSGP:
			case RpcRdmaConstants.RDMA_DONE:
				// The draft keeps these arms (with void bodies) only so the numbers are not
				// reused; a Version 2 peer has no business sending them.
				throw new MalformedHeaderException(HeaderFault.RESERVED_PROCEDURE,
						"Version 2 rdma_proc " + procedure + " (" + (procedure == RpcRdmaConstants.RDMA_MSGP ? "RDMA_MSGP"
								: "RDMA_DONE") + ") is reserved and must not be sent");
			case RpcRdmaConstants.RDMA_ERROR:
				require(in, 4, "RDMA_ERROR rdma_err");
				int error = in.readInt();
				switch (error) {
					case RpcRdmaConstants.ERR_VERS:
						return decodeErrVers(in, xid, RpcRdmaConstants.VERSION_2, credits);
					case RpcRdmaConstants.RDMA2_ERR_BAD_HEADER:
						return new Rdma2ErrBadHeader(xid, credits);
					case RpcRdmaConstants.RDMA2_ERR_INVAL_OPTION:
						return new Rdma2ErrInvalOption(xid, credits);
					default:
						throw new MalformedHeaderException(HeaderFault.UNKNOWN_ERROR_CODE,
								"Version 2 RDMA_ERROR has unknown rdma_err " + Integer.toUnsignedString(error)
										+ "; only RDMA_ERR_VERS (1), RDMA_ERR_BAD_HEADER (2) and RDMA_ERR_INVAL_OPTION (3) exist");
				}
			case RpcRdmaConstants.RDMA2_OPTIONAL:
				require(in, 8, "RDMA_OPTIONAL rdma_opttype and rdma_optinfo length");
				int optionType = in.readInt();
				ByteBuffer optionInfo;
				try {
					optionInfo = in.readOpaque(this.limits.maxOptionalInfoLength());
				}
				catch (XdrLimitExceededException ex) {
					throw new MalformedHeaderException(HeaderFault.OPTIONAL_INFO_LIMIT,
							"RDMA_OPTIONAL rdma_optinfo is longer than the " + this.limits.maxOptionalInfoLength()
									+ " bytes allowed: " + ex.getMessage());
				}
				catch (XdrTruncatedException ex) {
					throw new MalformedHeaderException(HeaderFault.TRUNCATED,
							"RDMA_OPTIONAL rdma_optinfo is truncated: " + ex.getMessage());
				}
				return new Rdma2Optional(xid, credits, optionType, optionInfo);
			default:
				throw new MalformedHeaderException(HeaderFault.UNKNOWN_PROCEDURE,
						"Version 2 rdma_proc " + Integer.toUnsignedString(procedure)
								+ " is not RDMA_MSG, RDMA_NOMSG, RDMA_ERROR or RDMA_OPTIONAL (0, 1, 4, 5)");
		}
	}

	private static ErrVers decodeErrVers(XdrDecoder in, int xid, int version, int credits) {
		require(in, 8, "ERR_VERS rdma_vers_low and rdma_vers_high");
		int low = in.readInt();
		int high = in.readInt();
		if (Integer.compareUnsigned(low, high) > 0) {
			throw new MalformedHeaderException(HeaderFault.INVALID_VERSION_RANGE,
					"ERR_VERS rdma_vers_low " + Integer.toUnsignedString(low) + " is above rdma_vers_high "
							+ Integer.toUnsignedString(high));
		}
		return new ErrVers(xid, version, credits, low, high);
	}

	/**
	 * Reads {@code rpc_rdma_header} / {@code rpcrdma2_chunk_lists}. The read list has no count,
	 * so it is bounded while walking it: a new read chunk starts where the position changes,
	 * and both the chunk count and the run of segments at one position are checked before the
	 * entry is kept.
	 */
	private ChunkLists decodeChunkLists(XdrDecoder in) {
		int chunks = 0;
		long totalBytes = 0;

		List<ReadSegment> readList = List.of();
		ArrayList<ReadSegment> reads = null;
		int runLength = 0;
		int lastPosition = 0;
		while (readDiscriminator(in, "read list")) {
			require(in, RpcRdmaConstants.READ_SEGMENT_LENGTH, "read list entry");
			int position = in.readInt();
			RdmaSegment target = readSegment(in);
			if (reads == null || position != lastPosition) {
				chunks++;
				runLength = 0;
				lastPosition = position;
				if (chunks > this.limits.maxChunks()) {
					throw chunkLimit("read list starts read chunk " + chunks);
				}
			}
			runLength++;
			if (runLength > this.limits.maxSegmentsPerChunk()) {
				throw new MalformedHeaderException(HeaderFault.SEGMENT_LIMIT, "read chunk at position "
						+ Integer.toUnsignedString(position) + " has more than " + this.limits.maxSegmentsPerChunk() + " segments");
			}
			totalBytes = addChunkBytes(totalBytes, target, "read list");
			if (reads == null) {
				reads = new ArrayList<>(4);
			}
			reads.add(new ReadSegment(position, target));
		}
		if (reads != null) {
			readList = List.copyOf(reads);
		}

		List<WriteChunk> writeList = List.of();
		ArrayList<WriteChunk> writes = null;
		while (readDiscriminator(in, "write list")) {
			chunks++;
			if (chunks > this.limits.maxChunks()) {
				throw chunkLimit("write list adds chunk " + chunks);
			}
			WriteChunk chunk = readWriteChunk(in, "write chunk");
			totalBytes = addChunkBytes(totalBytes, chunk, "write list");
			if (writes == null) {
				writes = new ArrayList<>(2);
			}
			writes.add(chunk);
		}
		if (writes != null) {
			writeList = List.copyOf(writes);
		}

		WriteChunk replyChunk = null;
		if (readDiscriminator(in, "reply chunk")) {
			replyChunk = readWriteChunk(in, "reply chunk");
			addChunkBytes(totalBytes, replyChunk, "reply chunk");
		}
		if (readList.isEmpty() && writeList.isEmpty() && replyChunk == null) {
			return ChunkLists.EMPTY;
		}
		return new ChunkLists(readList, writeList, replyChunk);
	}

	private MalformedHeaderException chunkLimit(String what) {
		return new MalformedHeaderException(HeaderFault.CHUNK_LIMIT,
				what + ", more than the " + this.limits.maxChunks() + " read and write chunks allowed");
	}

	/**
	 * Reads a counted array of segments. {@link XdrDecoder#readArrayCount} checks the count
	 * against the limit and against the bytes left before the array is allocated, so a chunk
	 * claiming 2^31 segments costs nothing.
	 */
	private WriteChunk readWriteChunk(XdrDecoder in, String what) {
		require(in, 4, what, " segment count");
		int count;
		try {
			count = in.readArrayCount(what, this.limits.maxSegmentsPerChunk(), RpcRdmaConstants.SEGMENT_LENGTH);
		}
		catch (XdrLimitExceededException ex) {
			throw new MalformedHeaderException(HeaderFault.SEGMENT_LIMIT, what + " has more than the "
					+ this.limits.maxSegmentsPerChunk() + " segments allowed: " + ex.getMessage());
		}
		catch (XdrTruncatedException ex) {
			throw new MalformedHeaderException(HeaderFault.TRUNCATED,
					what + " claims more segments than the message holds: " + ex.getMessage());
		}
		if (count == 0) {
			return new WriteChunk(List.of());
		}
		RdmaSegment[] segments = new RdmaSegment[count];
		for (int i = 0; i < count; i++) {
			segments[i] = readSegment(in);
		}
		return new WriteChunk(List.of(segments));
	}

	private static RdmaSegment readSegment(XdrDecoder in) {
		require(in, RpcRdmaConstants.SEGMENT_LENGTH, "RDMA segment");
		RdmaSegment segment = new RdmaSegment(in.readInt(), in.readInt(), in.readHyper());
		if (segment.wrapsAround()) {
			throw new MalformedHeaderException(HeaderFault.SEGMENT_WRAPS,
					segment + " ends past the end of the 64-bit address space");
		}
		return segment;
	}

	private long addChunkBytes(long total, WriteChunk chunk, String what) {
		for (RdmaSegment segment : chunk.segments()) {
			total = addChunkBytes(total, segment, what);
		}
		return total;
	}

	private long addChunkBytes(long total, RdmaSegment segment, String what) {
		// Unsigned 32-bit lengths summed in a long: with at most a few hundred segments the
		// sum cannot overflow, unlike 32-bit arithmetic, which a peer could wrap to a small
		// number.
		long sum = total + segment.unsignedLength();
		if (sum > this.limits.maxTotalChunkBytes()) {
			throw new MalformedHeaderException(HeaderFault.CHUNK_BYTES_LIMIT, what + " brings the chunks of this header to "
					+ sum + " bytes, more than the " + this.limits.maxTotalChunkBytes() + " allowed");
		}
		return sum;
	}

	/** RFC 4506 §4.19 optional-data: "value follows" is an XDR boolean, 1 or 0, nothing else. */
	private static boolean readDiscriminator(XdrDecoder in, String list) {
		require(in, 4, list, " discriminator");
		int value = in.readInt();
		if (value == 1) {
			return true;
		}
		if (value == 0) {
			return false;
		}
		throw new MalformedHeaderException(HeaderFault.INVALID_DISCRIMINATOR,
				list + " discriminator must be 0 or 1 but was " + Integer.toUnsignedString(value));
	}

	/**
	 * Where is the RPC message? RDMA_NOMSG must name a chunk that holds it: a Position-Zero
	 * Read chunk (RFC 5666 §5.1, RFC 8166 §3.5.3 Long Call) or the reply chunk (RFC 5666 §5.2
	 * Long Reply); RFC 8166 §4.5.2 cites an RDMA_NOMSG with no lists at all as an XDR error,
	 * and one with neither of the two has equally nowhere for its message to be. Headers
	 * followed by their RPC message inline must not also have a Position-Zero Read chunk,
	 * which would put data ahead of the XID that RFC 5666 §4.1 says begins the message.
	 */
	private static void checkMessageLocation(TransportHeader header) {
		if (!(header instanceof ChunkedHeader chunked)) {
			return;
		}
		ChunkLists lists = chunked.chunkLists();
		if (header.payloadRule() == PayloadRule.FORBIDDEN) {
			if (!lists.hasPositionZeroReadChunk() && !lists.hasReplyChunk()) {
				throw new MalformedHeaderException(HeaderFault.NOMSG_WITHOUT_MESSAGE_CHUNK,
						"RDMA_NOMSG has neither a Position-Zero Read chunk nor a reply chunk to carry its RPC message");
			}
		}
		else if (lists.hasPositionZeroReadChunk()) {
			throw new MalformedHeaderException(HeaderFault.POSITION_ZERO_WITH_INLINE_MESSAGE, "rdma_proc "
					+ header.procedure() + " carries its RPC message inline but also has a Position-Zero Read chunk");
		}
	}

	/**
	 * RFC 5666 §4.1: RDMA_MSG and RDMA_MSGP MUST be followed by the RPC message beginning with
	 * the XID, which MUST match rdma_xid; a mismatch is an XDR error (RFC 8166 §4.5.2). No RPC
	 * message follows RDMA_NOMSG, RDMA_DONE and RDMA_ERROR (RFC 5666 §4.1), and
	 * draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 says MUST NOT for every procedure but
	 * RDMA_MSG and RDMA_OPTIONAL, so bytes after those headers are rejected. RDMA_OPTIONAL MAY
	 * be followed by an RPC Payload Stream, which is then checked like RDMA_MSG's.
	 */
	private static void checkPayload(XdrDecoder in, TransportHeader header) {
		int remaining = in.remaining();
		switch (header.payloadRule()) {
			case REQUIRED:
				checkRpcMessage(in, header);
				break;
			case OPTIONAL:
				if (remaining > 0) {
					checkRpcMessage(in, header);
				}
				break;
			case FORBIDDEN:
				if (remaining > 0) {
					throw new MalformedHeaderException(HeaderFault.UNEXPECTED_RPC_MESSAGE, remaining
							+ " bytes follow a header with rdma_proc " + header.procedure() + ", after which nothing may follow");
				}
				break;
		}
	}

	private static void checkRpcMessage(XdrDecoder in, TransportHeader header) {
		int remaining = in.remaining();
		if (remaining < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH) {
			throw new MalformedHeaderException(HeaderFault.MISSING_RPC_MESSAGE,
					"rdma_proc " + header.procedure() + " must be followed by an RPC message of at least "
							+ RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH + " bytes (XID and msg_type) but " + remaining
							+ " bytes follow");
		}
		// An absolute read: the decoder stays positioned at the start of the RPC message.
		int rpcXid = in.buffer().getInt(in.position());
		if (rpcXid != header.xid()) {
			throw new MalformedHeaderException(HeaderFault.XID_MISMATCH,
					"rdma_xid 0x" + Integer.toHexString(header.xid()) + " differs from the RPC message's XID 0x"
							+ Integer.toHexString(rpcXid));
		}
	}

	private static void require(XdrDecoder in, int bytes, String what) {
		require(in, bytes, what, "");
	}

	/** Checks room; the message is built only on failure, keeping the good path allocation-free. */
	private static void require(XdrDecoder in, int bytes, String what, String part) {
		if (in.remaining() < bytes) {
			throw new MalformedHeaderException(HeaderFault.TRUNCATED,
					what + part + " needs " + bytes + " bytes but only " + in.remaining() + " remain");
		}
	}

}
