package io.rpcrdma.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.RdmaErrorReplies;

/**
 * The requester's end of the backward direction (RFC 8167), as Linux's
 * {@code xprtrdma/backchannel.c}: takes the calls the responder sends on the connection,
 * holds them within the backward-direction credits this side grants (§4.1), hands them to a
 * {@link BackwardCallHandler} and sends their replies inline (§4.2).
 */
final class BackwardCallReceiver {

	private final RpcRdmaEndpoint endpoint;

	private final InetSocketAddress remote;

	/** Serves backward-direction calls, or {@code null} to answer them PROG_UNAVAIL. */
	private final BackwardCallHandler handler;

	/** The backward-direction credits this side grants in its replies (RFC 8167 §4.1). */
	private final int grant;

	/** Backward-direction calls received and not yet answered. */
	private final AtomicInteger outstanding = new AtomicInteger();

	private final LongAdder received = new LongAdder();

	/**
	 * @param endpoint the connection the calls come on
	 * @param remote the responder's address
	 * @param handler serves the calls, or {@code null} to answer each PROG_UNAVAIL
	 * @param grant the backward-direction credits granted
	 */
	BackwardCallReceiver(RpcRdmaEndpoint endpoint, InetSocketAddress remote, BackwardCallHandler handler, int grant) {
		this.endpoint = endpoint;
		this.remote = remote;
		this.handler = handler;
		this.grant = grant;
	}

	/**
	 * A call from the responder (RFC 8167 §3.2). Its XID is the responder's, never matched
	 * against this side's calls. It must come inline: a backward call with chunks is refused
	 * with RDMA_ERROR (§7: no Upper-Layer Binding here allows them). A responder that has more
	 * calls outstanding than granted breaks §4.1 and would soon find no receive posted: it is
	 * disconnected, as a requester exceeding its forward grant is.
	 */
	void onCall(ChunkedHeader header, ByteBuffer payload) {
		int xid = header.xid();
		ChunkLists lists = header.chunkLists();
		if (!lists.readList().isEmpty() || !lists.writeList().isEmpty() || lists.replyChunk() != null) {
			this.endpoint.sendMessage(RdmaErrorReplies.forMalformed(header.version(), xid, this.grant),
					null, 0, null);
			return;
		}
		int outstanding = this.outstanding.incrementAndGet();
		if (outstanding > this.grant) {
			this.outstanding.decrementAndGet();
			this.endpoint.fail(new TransportClosedException("The responder had " + outstanding
					+ " backward-direction calls outstanding, more than the " + this.grant
					+ " credits granted (RFC 8167 §4.1); disconnected"));
			return;
		}
		this.received.increment();
		BackwardCall call = new BackwardCall(this, xid, header.version(), payload);
		if (this.handler == null) {
			call.reply(BackwardDirection.programUnavailable(xid));
			return;
		}
		try {
			this.handler.onBackwardCall(call);
		}
		catch (RuntimeException ex) {
			// The handler's own failure: the responder's call ends with its deadline, and the
			// credit comes back.
			call.drop();
		}
	}

	void sendReply(BackwardCall call, ByteBuffer reply) {
		// The credit is free before the reply is posted: the responder may send its next call
		// as soon as the reply arrives, which can be before the posting thread goes on.
		done();
		int limit = call.replyLimit();
		if (reply.remaining() > limit) {
			throw new MessageTooLargeException("The reply to backward-direction call XID 0x"
					+ Integer.toHexString(call.xid()) + " takes " + reply.remaining() + " bytes, more than the " + limit
					+ " the server receives inline (RFC 8167 §4.2)");
		}
		if (this.endpoint.isUsable()) {
			this.endpoint.sendChunkless(call.xid(), call.version(), this.grant, reply);
		}
	}

	void done() {
		this.outstanding.decrementAndGet();
	}

	/**
	 * @param version the call's version
	 * @return the largest RPC reply that goes back inline: the responder's receive size less the header
	 */
	int replyLimit(int version) {
		return this.endpoint.inlineSizes().sendThreshold(version) - RpcRdmaEndpoint.CHUNKLESS_HEADER_LENGTH;
	}

	/** @return the responder's address */
	InetSocketAddress remoteAddress() {
		return this.remote;
	}

	/** @return backward-direction calls received and not yet answered */
	int outstanding() {
		return this.outstanding.get();
	}

	/** @return backward-direction calls received so far */
	long received() {
		return this.received.sum();
	}

	/** @return the backward-direction credits this side grants (RFC 8167 §4.1) */
	int grant() {
		return this.grant;
	}

}
