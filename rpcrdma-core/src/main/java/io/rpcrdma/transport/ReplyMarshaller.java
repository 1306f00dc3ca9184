package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.Rdma2Nomsg;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaNomsg;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.protocol.WriteChunk;

/**
 * Conveys the responder's replies, as Linux's {@code svc_rdma_sendto.c} does: in the
 * requester's version, DDP-eligible items RDMA-Written into the Write chunks the call offered
 * (RFC 8166 §3.4.6), the reply inline as RDMA_MSG when it fits the requester's inline
 * threshold, else RDMA-Written into the Reply chunk and sent as RDMA_NOMSG (§3.5.4, Long
 * Reply); and, to an RFC 5666 requester that offered no room, reply data or the whole long
 * reply in Read chunks it pulls, held until its RDMA_DONE (RFC 5666 §3.4, §5.1, §11).
 */
final class ReplyMarshaller {

	private final RpcRdmaServerConnection connection;

	private final TransportConfig config;

	/** Replies whose Read chunks the requester is pulling, by XID, until RDMA_DONE. */
	private final ConcurrentHashMap<Integer, DoneWait> awaitingDone = new ConcurrentHashMap<>();

	ReplyMarshaller(RpcRdmaServerConnection connection, TransportConfig config) {
		this.connection = connection;
		this.config = config;
	}

	/**
	 * The requester sent RDMA_DONE (RFC 5666 §11): the reply's Read chunk buffers go back.
	 * @param xid the reply's XID
	 */
	void onDone(int xid) {
		DoneWait wait = this.awaitingDone.remove(xid);
		if (wait != null) {
			wait.finish(true);
		}
	}

	/** The connection failed: every reply awaiting RDMA_DONE gives its buffers back. */
	void reclaimAwaitingDone() {
		for (DoneWait wait : new ArrayList<>(this.awaitingDone.values())) {
			if (this.awaitingDone.remove(wait.xid, wait)) {
				wait.finish(false);
			}
		}
	}

	/** @return replies whose Read chunks await RDMA_DONE */
	int awaitingDone() {
		return this.awaitingDone.size();
	}

	/**
	 * Conveys a reply; on failure, the requester is answered with RDMA_ERROR instead.
	 * @return completes once the reply was sent (and, with Read chunks, RDMA_DONE came)
	 */
	CompletableFuture<Void> send(CallContext context, OutboundReply reply) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		List<RegisteredBuffer> buffers = new ArrayList<>(2);
		try {
			conveyReply(context, reply, buffers, done);
		}
		catch (TransportException ex) {
			for (RegisteredBuffer buffer : buffers) {
				buffer.release();
			}
			this.connection.answerWithError(context.version, context.xid);
			done.completeExceptionally(ex);
		}
		return done;
	}

	private void conveyReply(CallContext context, OutboundReply reply, List<RegisteredBuffer> buffers,
			CompletableFuture<Void> done) {
		if (!this.connection.isUsable()) {
			throw this.connection.failure();
		}
		ChunkTransfers transfers = this.connection.transfers();
		ByteBuffer message = reply.message();
		List<WriteChunk> offered = context.lists.writeList();
		List<DdpRange> items = reply.ddpItems();
		boolean plain = offered.isEmpty() && items.isEmpty();
		// A reply with nothing DDP-eligible and no Write chunk, the common case, allocates no lists.
		List<WriteChunk> returned = plain ? List.of() : new ArrayList<>(offered.size());
		List<ReadSegment> reads = plain ? List.of() : new ArrayList<>();
		List<DdpRange> moved = plain ? List.of() : new ArrayList<>();
		List<RegisteredBuffer> readBuffers = plain ? new ArrayList<>(0) : new ArrayList<>();
		for (int i = 0; i < items.size(); i++) {
			DdpRange item = items.get(i);
			if (i < offered.size() && item.length() <= offered.get(i).totalLength()) {
				// RFC 8166 §3.4.6: the data goes by RDMA Write; the XDR length word stays in
				// the Payload stream and the segments return the lengths actually written.
				// An item not in the message (DdpRange#isReduced) is copied once, from where the handler had it into
				// registered memory; the RDMA Write then goes from there. One already in this
				// connection's registered memory is written from where it is.
				RegisteredBuffer source = item.registered();
				if (source != null && transfers.usableHere(source)) {
					returned.add(new WriteChunk(transfers.writeFrom(source, item.length(), offered.get(i).segments())));
				}
				else {
					RegisteredBuffer bulk = this.connection.lease(BufferRole.LOCAL_BULK, item.length());
					buffers.add(bulk);
					returned.add(new WriteChunk(transfers.writeInto(item.data(message), offered.get(i).segments(), bulk)));
				}
				moved.add(item);
			}
			else if (this.config.replyDataInReadChunks() && context.version == RpcRdmaConstants.VERSION_1
					&& item.length() > 0) {
				// RFC 5666 §3.4: reply data offered for the requester to pull; the buffer is
				// kept until RDMA_DONE (RFC 5666 §11).
				RegisteredBuffer chunk = this.connection.lease(BufferRole.READ_CHUNK, item.length());
				readBuffers.add(chunk);
				chunk.buffer().put(0, item.data(message), 0, item.length());
				reads.add(new ReadSegment(item.offset(), this.connection.advertise(chunk), item.length(), chunk.address()));
				moved.add(item);
			}
		}
		for (int i = returned.size(); i < offered.size(); i++) {
			// An unused Write chunk goes back with its segments emptied.
			List<RdmaSegment> empty = new ArrayList<>();
			for (RdmaSegment segment : offered.get(i).segments()) {
				empty.add(new RdmaSegment(segment.handle(), 0, segment.offset()));
			}
			returned.add(new WriteChunk(empty));
		}
		ByteBuffer inline = removeItems(message, items, moved);
		int threshold = this.connection.inlineSizes().sendThreshold(context.version);
		TransportHeader header = (context.version == RpcRdmaConstants.VERSION_1)
				? new RdmaMsg(context.xid, this.connection.grant(), ChunkAssembler.lists(reads, returned, null))
				: new Rdma2Msg(context.xid, this.connection.grant(), ChunkAssembler.lists(reads, returned, null));
		ByteBuffer payload = inline;
		if (TransportHeaderEncoder.encodedLength(header) + inline.remaining() > threshold) {
			WriteChunk replyChunk = context.lists.replyChunk();
			boolean fitsReplyChunk = replyChunk != null && inline.remaining() <= replyChunk.totalLength();
			if (!fitsReplyChunk && this.config.replyDataInReadChunks()
					&& context.version == RpcRdmaConstants.VERSION_1) {
				// RFC 5666 §5.1: the long reply as a Position-Zero Read chunk the requester
				// pulls, acknowledged with RDMA_DONE.
				RegisteredBuffer chunk;
				try {
					chunk = this.connection.lease(BufferRole.READ_CHUNK, inline.remaining());
				}
				catch (TransportException ex) {
					for (RegisteredBuffer buffer : readBuffers) {
						buffer.release();
					}
					throw ex;
				}
				readBuffers.add(chunk);
				chunk.buffer().put(0, inline, inline.position(), inline.remaining());
				List<ReadSegment> withZero = new ArrayList<>(reads.size() + 1);
				withZero.add(new ReadSegment(0, this.connection.advertise(chunk), inline.remaining(), chunk.address()));
				withZero.addAll(reads);
				header = new RdmaNomsg(context.xid, this.connection.grant(), new ChunkLists(withZero, returned, null));
				payload = null;
			}
			else if (!fitsReplyChunk) {
				for (RegisteredBuffer buffer : readBuffers) {
					buffer.release();
				}
				throw new MessageTooLargeException("The reply to XID 0x" + Integer.toHexString(context.xid) + " needs "
						+ inline.remaining() + " bytes but the requester accepts " + threshold + " inline and offered "
						+ ((replyChunk == null) ? "no Reply chunk" : "a Reply chunk of " + replyChunk.totalLength()));
			}
			else {
				// RFC 8166 §3.5.4 Long Reply: the whole reply goes into the Reply chunk.
				RegisteredBuffer bulk = this.connection.lease(BufferRole.LOCAL_BULK, inline.remaining());
				buffers.add(bulk);
				WriteChunk written = new WriteChunk(transfers.writeInto(inline, replyChunk.segments(), bulk));
				this.connection.counters.writeChunksFilled.decrement();
				this.connection.counters.replyChunksFilled.increment();
				header = (context.version == RpcRdmaConstants.VERSION_1)
						? new RdmaNomsg(context.xid, this.connection.grant(), new ChunkLists(reads, returned, written))
						: new Rdma2Nomsg(context.xid, this.connection.grant(), new ChunkLists(reads, returned, written));
				payload = null;
			}
		}
		int invalidate = (this.connection.inlineSizes().peerAcceptsInvalidate() && readBuffers.isEmpty())
				? context.firstAdvertisedStag() : 0;
		boolean awaitDone = !readBuffers.isEmpty();
		if (awaitDone) {
			DoneWait wait = new DoneWait(this.connection, context.xid, readBuffers, done);
			DoneWait earlier = this.awaitingDone.put(context.xid, wait);
			if (earlier != null) {
				// RDMA_DONE names a reply by its XID alone (RFC 5666 §11): a requester that reuses
				// the XID of a reply whose chunks it has not acknowledged can no longer say which
				// one it means. The earlier reply's chunks are reclaimed now, as if its RDMA_DONE
				// had not come in time; its credit and buffers come back.
				earlier.finish(false);
			}
			wait.timer = TransportTimers.TIMER.schedule(() -> {
				if (this.awaitingDone.remove(context.xid, wait)) {
					wait.finish(false);
				}
			}, this.config.doneTimeout().toNanos(), TimeUnit.NANOSECONDS);
		}
		else {
			// The credit is free again before the requester can see the reply (RFC 5666 §3.3).
			this.connection.requestFinished();
		}
		try {
			sendReplyMessage(header, payload, invalidate, buffers, awaitDone, done);
		}
		catch (TransportException ex) {
			// Not sent: undo the bookkeeping above so the caller's error reply settles the credit.
			if (awaitDone) {
				DoneWait wait = this.awaitingDone.remove(context.xid);
				if (wait != null) {
					wait.timer.cancel(false);
					for (RegisteredBuffer buffer : wait.buffers) {
						buffer.release();
					}
				}
			}
			else {
				this.connection.requestUnfinished();
			}
			throw ex;
		}
	}

	private void sendReplyMessage(TransportHeader header, ByteBuffer payload, int invalidate,
			List<RegisteredBuffer> buffers, boolean awaitDone, CompletableFuture<Void> done) {
		this.connection.sendMessage(header, payload, invalidate, (ok) -> {
			for (RegisteredBuffer buffer : buffers) {
				buffer.release();
			}
			if (!awaitDone) {
				if (ok) {
					done.complete(null);
				}
				else {
					done.completeExceptionally(new TransportClosedException("The reply could not be sent"));
				}
			}
		});
	}

	/**
	 * The Payload stream (RFC 8166 §3.4.6): the message without the items moved into chunks,
	 * with the data of items held outside the message (DdpRange#isReduced) that stayed inline put in their place.
	 * @param items every item, in order
	 * @param moved those moved into chunks, in the same order
	 */
	static ByteBuffer removeItems(ByteBuffer message, List<DdpRange> items, List<DdpRange> moved) {
		int size = message.remaining();
		int next = 0;
		for (DdpRange item : items) {
			if (next < moved.size() && moved.get(next) == item) {
				size -= item.paddedEnd() - item.offset();
				next++;
			}
			else if (item.isReduced()) {
				size += item.paddedLength();
			}
		}
		if (size == message.remaining() && moved.isEmpty()) {
			return message.duplicate();
		}
		ByteBuffer out = ByteBuffer.allocate(size);
		int base = message.position();
		int from = 0;
		next = 0;
		for (DdpRange item : items) {
			boolean isMoved = next < moved.size() && moved.get(next) == item;
			if (isMoved) {
				next++;
			}
			else if (!item.isReduced()) {
				continue;
			}
			out.put(message.slice(base + from, item.offset() - from));
			if (!isMoved) {
				// XDR padding after the data is zero (RFC 4506 §4.10): a fresh buffer is.
				out.put(item.source().duplicate());
				out.position(out.position() + item.paddedLength() - item.length());
			}
			from = item.paddedEnd();
		}
		out.put(message.slice(base + from, message.remaining() - from));
		return out.flip();
	}

}
