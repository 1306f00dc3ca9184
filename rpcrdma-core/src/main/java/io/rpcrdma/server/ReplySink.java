package io.rpcrdma.server;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.transport.BackwardCalls;
import io.rpcrdma.transport.DdpRange;

/**
 * Sends encoded replies to the client a call came from. Implemented by the transport, one per
 * connection. The dispatcher calls it exactly once per reply, possibly from a handler thread.
 */
@FunctionalInterface
public interface ReplySink {

	/**
	 * Sends a reply.
	 * @param xid the xid of the call answered
	 * @param reply the encoded RPC reply between its position and limit, in a buffer from this
	 * connection's {@link ReplyBufferSupplier}; ownership passes to the sink, also when it
	 * throws
	 */
	void send(int xid, ByteBuffer reply);

	/**
	 * Sends a reply with DDP-eligible result items (RFC 8166 §6), which the transport may move
	 * into the requester's Write chunks. A sink that conveys no chunks sends the reply whole,
	 * the items inline.
	 * @param xid the xid of the call answered
	 * @param reply the encoded RPC reply between its position and limit
	 * @param ddpItems DDP-eligible items, offsets relative to the reply's position, increasing
	 */
	default void send(int xid, ByteBuffer reply, List<DdpRange> ddpItems) {
		send(xid, reply);
	}

	/**
	 * Whether {@link #send(int, ByteBuffer, List)} conveys chunks, and so takes the data of
	 * items reduced from the reply ({@link DdpRange#isReduced()}) from where they are.
	 * @return {@code false} unless the sink says otherwise: items are then written into the reply
	 */
	default boolean conveysChunks() {
		return false;
	}

	/**
	 * The results did not fit the reply buffer, which is as large as the client can receive
	 * (inline or in its Reply chunk): the transport tells the client at once (RFC 8166 §4.5.3)
	 * instead of the dispatcher answering SYSTEM_ERR.
	 * @param xid the xid of the call
	 * @param bufferSize the size of the buffer the reply outgrew
	 * @return whether the transport took care of it; if not, SYSTEM_ERR is sent
	 */
	default boolean replyTooLarge(int xid, int bufferSize) {
		return false;
	}

	/**
	 * The backward direction of the connection the call came on (RFC 8167), to call the
	 * programs the client serves.
	 * @return the backward direction, or {@code null} when the connection has none
	 */
	default BackwardCalls backwardCalls() {
		return null;
	}

	/**
	 * The connection the call came on, as an identity (RPCSEC_GSS contexts are bound to it).
	 * @return the connection, or {@code null} when the call came over none
	 */
	default Object connection() {
		return null;
	}

	/** @return completes when {@link #connection()} closes; {@code null} when that is {@code null} */
	default java.util.concurrent.CompletableFuture<Void> connectionClosed() {
		return null;
	}

	/**
	 * RFC 5666 §6.2, §11: applies a CONF_RDMA request admitted under a security flavor to the
	 * connection the call came on.
	 * @param request the requester's values
	 * @return this side's values, or {@code null} when the call came over no such connection
	 */
	default ConfigRdmaReply configureInBand(ConfigRdmaRequest request) {
		return null;
	}

}
