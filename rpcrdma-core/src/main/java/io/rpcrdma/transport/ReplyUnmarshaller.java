package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.Rdma2ErrBadHeader;
import io.rpcrdma.protocol.Rdma2Nomsg;
import io.rpcrdma.protocol.RdmaDone;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.RdmaNomsg;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.xdr.OpaquePadding;

/**
 * Reads a responder's reply to a call, as Linux's {@code rpcrdma_reply_handler} and its
 * {@code rpcrdma_decode_msg}/{@code _nomsg} do: the RPC reply inline after the header (RDMA_MSG,
 * RDMA_MSGP), in the Reply chunk the call offered (RDMA_NOMSG, RFC 8166 §3.5.4), with the
 * Write chunks the responder filled lent in place (§3.4.6); and, for RFC 5666 responders,
 * reply data in Read chunks this side pulls and acknowledges with RDMA_DONE (RFC 5666 §3.4,
 * §5.1). Also says what an RDMA_ERROR means for the call it answers.
 */
final class ReplyUnmarshaller {

	private final RpcRdmaClientConnection connection;

	private final TransportConfig config;

	ReplyUnmarshaller(RpcRdmaClientConnection connection, TransportConfig config) {
		this.connection = connection;
		this.config = config;
	}

	/**
	 * Reads a non-error reply of a sent call.
	 * @param pc the call, held by the caller
	 * @param header the reply's transport header, a chunked one
	 * @param valid its decoding
	 * @param message the whole received message
	 * @return the reply, or {@code null} when it comes in Read chunks: the call is then
	 * finished once they were pulled
	 * @throws TransportException if the reply's chunks do not match what the call offered
	 */
	InboundReply unmarshal(PendingCall pc, TransportHeader header, HeaderDecodeResult.Valid valid, ByteBuffer message) {
		ChunkedHeader chunked = (ChunkedHeader) header;
		ChunkLists lists = chunked.chunkLists();
		OpaquePadding padding = RdmaMsgpPadding.of(header, valid);
		if (padding != null && (!lists.readList().isEmpty() || !lists.writeList().isEmpty()
				|| padding.align() > this.connection.inlineSizes().receiveThreshold(pc.version))) {
			// RFC 5666 §3.9: the decoder skips the padding of an inline reply. Chunk positions
			// would count a stream the padding shifts, and an alignment beyond the receive
			// buffer cannot be what a sender meant: refuse those.
			throw new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(pc.xid)
					+ " is RDMA_MSGP padded to " + padding.align()
					+ " bytes with chunks or beyond the receive buffer, which cannot be undone");
		}
		List<ByteBuffer> writeData = collectWriteChunks(pc, lists);
		if (!lists.readList().isEmpty()) {
			if (header.version() != RpcRdmaConstants.VERSION_1) {
				throw new ChunkValidationException("The Version " + header.version() + " reply to XID 0x"
						+ Integer.toHexString(pc.xid) + " carries Read chunks, which only RFC 5666 replies may");
			}
			// RFC 5666 §3.5 and §5.1: reply data, or the whole long reply at position zero,
			// in Read chunks the requester pulls and acknowledges with RDMA_DONE.
			ByteBuffer inline = lists.hasPositionZeroReadChunk() ? null
					: message.slice(valid.payloadOffset(), valid.payloadLength());
			fetchReplyReadChunks(pc, lists, inline, writeData);
			return null;
		}
		ByteBuffer payload;
		if (header instanceof RdmaNomsg || header instanceof Rdma2Nomsg) {
			payload = collectReplyChunk(pc, lists.replyChunk());
		}
		else {
			payload = message.slice(valid.payloadOffset(), valid.payloadLength());
		}
		return new InboundReply(pc.xid, header.version(), payload, writeData, padding);
	}

	/**
	 * What an RDMA_ERROR means for a call. ERR_CHUNK (RDMA_ERR_BAD_HEADER in Version 2) to a
	 * call whose header carried no Read chunk can only be the responder's refusal of a reply
	 * it could not convey (RFC 8166 §4.5.3): this side's headers are well formed, and with no
	 * chunk to pull there is nothing else to refuse.
	 */
	RdmaErrorReceivedException refusal(PendingCall pc, RdmaErrorHeader error) {
		if ((error instanceof RdmaErrChunk || error instanceof Rdma2ErrBadHeader) && !pc.readChunksSent) {
			return new ReplyTooLargeException(error, this.connection.inlineSizes().receiveThreshold(pc.version),
					(pc.replyBuffer != null) ? pc.call.maxReplySize() : 0, !pc.writeBuffers.isEmpty());
		}
		return new RdmaErrorReceivedException(error);
	}

	private List<ByteBuffer> collectWriteChunks(PendingCall pc, ChunkLists lists) {
		List<WriteChunk> returned = lists.writeList();
		if (returned.isEmpty()) {
			return List.of();
		}
		if (returned.size() > pc.writeBuffers.size()) {
			throw new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(pc.xid) + " returns "
					+ returned.size() + " Write chunks but " + pc.writeBuffers.size() + " were offered");
		}
		List<ByteBuffer> data = new ArrayList<>(returned.size());
		for (int i = 0; i < returned.size(); i++) {
			long length = returned.get(i).totalLength();
			int offered = pc.call.writeChunkSizes().get(i);
			if (length > offered) {
				throw new ChunkValidationException("The reply to XID 0x" + Integer.toHexString(pc.xid) + " claims "
						+ length + " bytes in Write chunk " + i + " of " + offered);
			}
			// Lent in place: the completion reads the data where the responder wrote it, and
			// gives the buffers back when done (CallCompletion's five-argument replied).
			data.add(pc.writeBuffers.get(i).buffer().slice(0, (int) length).asReadOnlyBuffer());
		}
		pc.lendWriteBuffers();
		return data;
	}

	private ByteBuffer collectReplyChunk(PendingCall pc, WriteChunk replyChunk) {
		if (replyChunk == null || pc.replyBuffer == null) {
			throw new ChunkValidationException("RDMA_NOMSG reply to XID 0x" + Integer.toHexString(pc.xid)
					+ " without the Reply chunk that was " + ((pc.replyBuffer == null) ? "never offered" : "offered"));
		}
		long length = replyChunk.totalLength();
		if (length > pc.call.maxReplySize() || length < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH) {
			throw new ChunkValidationException("The Reply chunk of XID 0x" + Integer.toHexString(pc.xid) + " claims "
					+ length + " bytes of the " + pc.call.maxReplySize() + " offered");
		}
		byte[] bytes = new byte[(int) length];
		pc.replyBuffer.buffer().get(0, bytes);
		ByteBuffer payload = ByteBuffer.wrap(bytes);
		if (payload.getInt(0) != pc.xid) {
			throw new ChunkValidationException("The Reply chunk of XID 0x" + Integer.toHexString(pc.xid)
					+ " holds a message with XID 0x" + Integer.toHexString(payload.getInt(0)));
		}
		return payload;
	}

	/**
	 * RFC 5666 §3.4 and §11: a responder may return reply data in Read chunks; the requester
	 * pulls them and then sends RDMA_DONE so the responder can free its buffers. The call
	 * keeps its credit until the RDMA_DONE has gone out, because RDMA_DONE takes a receive
	 * at the responder like any other message (RFC 5666 §3.3).
	 */
	private void fetchReplyReadChunks(PendingCall pc, ChunkLists lists, ByteBuffer payload, List<ByteBuffer> writeData) {
		// The callbacks below outlive the reply's handling: this call is never reused.
		pc.recyclable = false;
		List<ReadChunk> chunks = lists.readChunks();
		this.connection.transfers().fetch(chunks, (data) -> {
			ByteBuffer whole;
			try {
				ByteBuffer inline = payload;
				List<ReadChunk> rest = chunks;
				ByteBuffer[] restData = data;
				if (inline == null) {
					inline = data[0];
					rest = chunks.subList(1, chunks.size());
					restData = Arrays.copyOfRange(data, 1, data.length);
				}
				whole = ChunkAssembler.reassemble(inline, rest, restData, false);
				if (whole.remaining() < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH || whole.getInt(0) != pc.xid) {
					throw new ChunkValidationException("The reply pulled for XID 0x" + Integer.toHexString(pc.xid)
							+ " does not begin with that XID");
				}
			}
			catch (TransportException ex) {
				sendDone(pc, null, ex);
				return;
			}
			sendDone(pc, new InboundReply(pc.xid, RpcRdmaConstants.VERSION_1, whole, writeData), null);
		}, (error) -> this.connection.finish(pc, null, error));
	}

	private void sendDone(PendingCall pc, InboundReply reply, TransportException error) {
		try {
			this.connection.sendMessage(new RdmaDone(pc.xid, this.config.creditsRequested()), null, 0,
					(ok) -> this.connection.finish(pc, reply, error));
		}
		catch (TransportException ex) {
			this.connection.finish(pc, null, ex);
		}
	}

}
