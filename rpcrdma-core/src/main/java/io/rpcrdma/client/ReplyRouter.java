package io.rpcrdma.client;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.OpaquePadding;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrException;

/**
 * Delivers inbound encoded replies of one connection to their {@link PendingCalls}: decodes
 * the header, and completes the call with a {@link ReceivedReply} if it is SUCCESS, or fails
 * it with the {@link RpcCallException} its status names ({@link ReplyInterpreter}) or with
 * {@link MalformedReplyException} if the header cannot be decoded.
 * <p>
 * The receive buffer is released here unless a call took it inside a {@link ReceivedReply}:
 * for error replies, malformed replies, and replies no call awaits (late or stray, counted by
 * {@link PendingCalls#lateReplies()}).
 */
public final class ReplyRouter {

	private static final System.Logger logger = System.getLogger(ReplyRouter.class.getName());

	private final PendingCalls<ReceivedReply> pending;

	private final LongAdder malformed = new LongAdder();

	/**
	 * @param pending the calls awaiting replies on this connection
	 */
	public ReplyRouter(PendingCalls<ReceivedReply> pending) {
		this.pending = Objects.requireNonNull(pending, "pending");
	}

	/**
	 * Routes one inbound reply.
	 * @param message the encoded RPC reply from its position to its limit
	 * @param release gives the message's buffer back to the transport; run exactly once
	 * @return whether a pending call received it (successfully or as a failure)
	 */
	public boolean route(ByteBuffer message, Runnable release) {
		return route(message, List.of(), release);
	}

	/**
	 * Routes one inbound reply whose call offered Write chunks.
	 * @param message the encoded RPC reply from its position to its limit
	 * @param writeChunks the data the responder placed in each offered Write chunk (RFC 8166
	 * §3.4.6), handed to the {@link ReceivedReply}
	 * @param release gives the message's and the chunks' buffers back to the transport; run
	 * exactly once
	 * @return whether a pending call received it (successfully or as a failure)
	 */
	public boolean route(ByteBuffer message, List<ByteBuffer> writeChunks, Runnable release) {
		return route(message, writeChunks, null, release);
	}

	/**
	 * Routes one inbound reply that may carry RFC 5666 §3.9 RDMA_MSGP padding.
	 * @param message the encoded RPC reply from its position to its limit
	 * @param writeChunks the data the responder placed in each offered Write chunk
	 * @param padding the padding the results' decoder skips before large opaques, or {@code null}
	 * @param release gives the buffers back to the transport; run exactly once
	 * @return whether a pending call received it (successfully or as a failure)
	 */
	public boolean route(ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding, Runnable release) {
		XdrDecoder decoder = new XdrDecoder(message).withOpaquePadding(padding);
		RpcReply header;
		try {
			header = RpcMessageCodec.decodeReply(decoder);
		}
		catch (OncRpcException ex) {
			this.malformed.increment();
			release.run();
			RemoteCall call = this.pending.call(ex.xid());
			if (call == null) {
				logger.log(Level.DEBUG, () -> "Dropping a malformed reply for no pending call on "
						+ this.pending.endpoint() + ": " + ex.getMessage());
				return false;
			}
			return this.pending.fail(ex.xid(), new MalformedReplyException(call, ex));
		}
		catch (XdrException ex) {
			this.malformed.increment();
			release.run();
			logger.log(Level.DEBUG, () -> "Dropping a message too short to be a reply from " + this.pending.endpoint()
					+ ": " + ex.getMessage());
			return false;
		}
		if (header.isSuccess()) {
			ReceivedReply reply = new ReceivedReply(header, decoder, writeChunks, release);
			if (!this.pending.complete(header.xid(), reply)) {
				reply.release();
				return false;
			}
			return true;
		}
		release.run();
		RemoteCall call = this.pending.call(header.xid());
		if (call == null || !this.pending.fail(header.xid(), ReplyInterpreter.failureOf(call, header))) {
			this.pending.countLateReply();
			return false;
		}
		return true;
	}

	/**
	 * @return replies dropped because their header could not be decoded
	 */
	public long malformedReplies() {
		return this.malformed.sum();
	}

}
