package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.HeaderLimits;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.Rdma2Nomsg;
import io.rpcrdma.protocol.Rdma2Optional;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaNomsg;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.protocol.TraceContextOption;
import io.rpcrdma.protocol.WriteChunk;

/**
 * Marshals the requester's calls, as Linux's {@code rpcrdma_marshal_req} does: a small call
 * goes inline as RDMA_MSG with three empty chunk lists (RFC 8166 §4.1.2); DDP-eligible items
 * move into Read chunks (§3.4.4), Write chunks and a Reply chunk are offered for the reply
 * (§3.4.5, §3.4.6); a call too long for the inline threshold goes as RDMA_NOMSG with a
 * Position Zero Read chunk (§3.5.3, Long Call). In Version Two, a traced call is wrapped in
 * the trace-context option until the responder refuses it (draft §3.1). Allocates nothing for
 * a small inline call.
 */
final class CallMarshaller {

	/** RFC 8166 §3.3.2: what any receiver accepts before anything is known about it. */
	private static final int FIRST_MESSAGE_LIMIT = 1024;

	private final RpcRdmaEndpoint endpoint;

	private final TransportConfig config;

	/**
	 * Whether the responder answered the trace-context option with RDMA_ERR_INVAL_OPTION
	 * (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1): it is not offered again on this connection.
	 */
	private volatile boolean traceContextRefused;

	CallMarshaller(RpcRdmaEndpoint endpoint, TransportConfig config) {
		this.endpoint = endpoint;
		this.config = config;
	}

	/** The responder does not know the trace-context option: no call offers it again. */
	void refuseTraceContext() {
		this.traceContextRefused = true;
	}

	/**
	 * Marshals a call and posts its Send.
	 * @param pc the call, whose chunk buffers are leased into it
	 * @param vers the version it goes in
	 * @param confirmed whether a reply confirmed that version: until one does, a Version Two
	 * call stays within the 1024 bytes any receiver accepts
	 */
	void marshalAndSend(PendingCall pc, int vers, boolean confirmed) {
		int threshold = this.endpoint.inlineSizes().sendThreshold(vers);
		if (!confirmed && vers != RpcRdmaConstants.VERSION_1) {
			threshold = Math.min(threshold, FIRST_MESSAGE_LIMIT);
		}
		ByteBuffer message = pc.message;
		OutboundCall call = pc.call;
		if (call.readChunkItems().isEmpty() && call.registeredItems().isEmpty() && call.writeChunkSizes().isEmpty()
				&& call.maxReplySize() + RpcRdmaEndpoint.CHUNKLESS_HEADER_LENGTH
						<= this.endpoint.inlineSizes().receiveThreshold(vers)
				&& RpcRdmaEndpoint.CHUNKLESS_HEADER_LENGTH + message.remaining() <= threshold) {
			// The common small call: RDMA_MSG with three empty chunk lists (RFC 8166 §4.1.2),
			// its reply expected inline, written without building a header.
			pc.readChunksSent = false;
			if (call.traceContext() != null && offersTraceContext(vers)
					&& sendTraced(pc, chunked(pc.xid, vers, false, ChunkLists.EMPTY), message, threshold)) {
				return;
			}
			pc.traceContextOffered = false;
			this.endpoint.sendChunkless(pc.xid, vers, this.config.creditsRequested(), message);
			return;
		}
		int base = message.position();
		List<RegisteredItem> registered = pc.call.registeredItems();
		List<ReadSegment> reads = (pc.call.readChunkItems().isEmpty() && registered.isEmpty()) ? List.of()
				: new ArrayList<>();
		int moved = 0;
		for (DdpRange item : pc.call.readChunkItems()) {
			if (item.length() == 0) {
				continue;
			}
			RegisteredBuffer buffer = this.endpoint.lease(BufferRole.READ_CHUNK, item.length());
			pc.add(buffer);
			buffer.buffer().put(0, message, base + item.offset(), item.length());
			reads.add(new ReadSegment(item.offset() + registeredBefore(registered, item.offset()),
					this.endpoint.advertise(buffer),
					item.length(), buffer.address()));
			moved += item.paddedLength();
		}
		if (!registered.isEmpty()) {
			addRegisteredItems(registered, reads);
		}
		List<WriteChunk> writes = pc.call.writeChunkSizes().isEmpty() ? List.of() : new ArrayList<>();
		for (int size : pc.call.writeChunkSizes()) {
			RegisteredBuffer buffer = this.endpoint.lease(BufferRole.WRITE_CHUNK, size);
			pc.add(buffer);
			pc.addWriteBuffer(buffer);
			writes.add(WriteChunk.of(new RdmaSegment(this.endpoint.advertise(buffer), size, buffer.address())));
		}
		WriteChunk reply = null;
		int replyHeader = RpcRdmaConstants.FIXED_HEADER_LENGTH
				+ TransportHeaderEncoder.encodedLength(ChunkAssembler.lists(List.of(), writes, null));
		if (pc.call.maxReplySize() + replyHeader > this.endpoint.inlineSizes().receiveThreshold(vers)) {
			RegisteredBuffer buffer = this.endpoint.lease(BufferRole.WRITE_CHUNK, pc.call.maxReplySize());
			pc.add(buffer);
			pc.replyBuffer = buffer;
			reply = WriteChunk.of(new RdmaSegment(this.endpoint.advertise(buffer), pc.call.maxReplySize(), buffer.address()));
		}
		pc.readChunksSent = !reads.isEmpty();
		int inlineLength = message.remaining() - moved;
		TransportHeader header = chunked(pc.xid, vers, false, ChunkAssembler.lists(reads, writes, reply));
		int headerLength = TransportHeaderEncoder.encodedLength(header);
		ByteBuffer inline = inlineStream(pc, inlineLength);
		if (headerLength + inlineLength <= threshold) {
			sendCall(pc, header, inline, threshold);
			return;
		}
		// RFC 8166 §3.5.3 Long Call: the whole Payload stream goes in a Position-Zero Read
		// chunk and the header travels alone as RDMA_NOMSG.
		RegisteredBuffer buffer = this.endpoint.lease(BufferRole.READ_CHUNK, inlineLength);
		pc.add(buffer);
		buffer.buffer().put(0, inline, 0, inlineLength);
		List<ReadSegment> withZero = new ArrayList<>(reads.size() + 1);
		withZero.add(new ReadSegment(0, this.endpoint.advertise(buffer), inlineLength, buffer.address()));
		withZero.addAll(reads);
		pc.readChunksSent = true;
		header = chunked(pc.xid, vers, true, new ChunkLists(withZero, writes, reply));
		headerLength = TransportHeaderEncoder.encodedLength(header);
		if (headerLength > threshold) {
			throw new MessageTooLargeException("The transport header of XID 0x" + Integer.toHexString(pc.xid) + " takes "
					+ headerLength + " bytes, more than the " + threshold + "-byte inline threshold; use fewer chunks");
		}
		sendCall(pc, header, null, threshold);
	}

	/** Sends a call with its header, wrapped in the trace-context option where it is offered. */
	private void sendCall(PendingCall pc, TransportHeader header, ByteBuffer payload, int threshold) {
		if (pc.call.traceContext() != null && offersTraceContext(header.version())
				&& sendTraced(pc, header, payload, threshold)) {
			return;
		}
		pc.traceContextOffered = false;
		this.endpoint.sendMessage(header, payload, 0, null);
	}

	/**
	 * Sends {@code header} wrapped in the trace-context option (TraceContextOption) if the
	 * wrapped message still fits the inline threshold and its rdma_optinfo the default bound a
	 * receiver puts on it; else sends nothing: the call then goes untraced across the wire.
	 * @return whether it was sent
	 */
	private boolean sendTraced(PendingCall pc, TransportHeader header, ByteBuffer payload, int threshold) {
		byte[] info = TraceContextOption.encode(pc.call.traceContext(), header);
		if (info.length > HeaderLimits.DEFAULT_MAX_OPTIONAL_INFO_LENGTH) {
			return false;
		}
		Rdma2Optional traced = new Rdma2Optional(pc.xid, header.credits(), TraceContextOption.OPTION_TYPE, info);
		int payloadLength = (payload != null) ? payload.remaining() : 0;
		if (TransportHeaderEncoder.encodedLength(traced) + payloadLength > threshold) {
			return false;
		}
		pc.traceContextOffered = true;
		// Counted as the call it wraps (inline message, chunks); sendMessage counts nothing
		// for an RDMA_OPTIONAL.
		this.endpoint.count(header, payloadLength);
		this.endpoint.sendMessage(traced, payload, 0, null);
		return true;
	}

	/**
	 * Advertises the caller's own registered buffers as Read chunks (zero copy): each at its
	 * XDR position, which counts the data of the registered items before it (RFC 8166
	 * §3.4.4); the read list stays in position order.
	 */
	private void addRegisteredItems(List<RegisteredItem> registered, List<ReadSegment> reads) {
		int before = 0;
		for (RegisteredItem item : registered) {
			if (item.length() > 0) {
				RegisteredBuffer buffer = item.buffer();
				reads.add(new ReadSegment(item.offset() + before, this.endpoint.advertise(buffer), item.length(),
						buffer.address()));
			}
			before += item.paddedLength();
		}
		reads.sort(Comparator.comparingLong(ReadSegment::unsignedPosition));
	}

	/** The bytes registered items at or before {@code offset} add to the XDR stream. */
	private static int registeredBefore(List<RegisteredItem> registered, int offset) {
		int before = 0;
		for (RegisteredItem item : registered) {
			if (item.offset() > offset) {
				break;
			}
			before += item.paddedLength();
		}
		return before;
	}

	/** The Payload stream: the message without the items moved into Read chunks. */
	private static ByteBuffer inlineStream(PendingCall pc, int inlineLength) {
		ByteBuffer message = pc.message;
		if (pc.call.readChunkItems().isEmpty()) {
			// Read only with absolute gets, so the call's own buffer serves.
			return message;
		}
		ByteBuffer out = ByteBuffer.allocate(inlineLength);
		int base = message.position();
		int from = 0;
		for (DdpRange item : pc.call.readChunkItems()) {
			if (item.length() == 0) {
				continue;
			}
			out.put(message.slice(base + from, item.offset() - from));
			from = item.paddedEnd();
		}
		out.put(message.slice(base + from, message.remaining() - from));
		return out.flip();
	}

	/**
	 * The trace-context option is an optional feature of Version Two (draft §3.1), offered in
	 * Version Two messages only, until the responder refuses it. It may go in the first message
	 * of version negotiation (draft §5 asks for a valid Version Two message, which it is): a
	 * Version One responder, Linux's among them, answers that message ERR_VERS on its version
	 * alone (RFC 8166 §4.3.1) without reading further, and the call goes again in Version One,
	 * where the option is never offered; a Version Two responder that does not know the option
	 * answers RDMA_ERR_INVAL_OPTION and the call goes again plain.
	 */
	boolean offersTraceContext(int vers) {
		return vers == RpcRdmaConstants.VERSION_2 && !this.traceContextRefused;
	}


	private TransportHeader chunked(int xid, int vers, boolean nomsg, ChunkLists lists) {
		int requested = this.config.creditsRequested();
		if (vers == RpcRdmaConstants.VERSION_1) {
			return nomsg ? new RdmaNomsg(xid, requested, lists) : new RdmaMsg(xid, requested, lists);
		}
		return nomsg ? new Rdma2Nomsg(xid, requested, lists) : new Rdma2Msg(xid, requested, lists);
	}

}
