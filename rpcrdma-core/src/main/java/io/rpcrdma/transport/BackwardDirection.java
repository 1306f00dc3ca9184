package io.rpcrdma.transport;

import java.nio.ByteBuffer;

import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The rules both ends of a connection follow for RPC-over-RDMA in the backward direction
 * (RFC 8167): how a received RDMA_MSG is told apart, and what a requester that serves no
 * backward calls answers.
 *
 * <p>RFC 8167 §5: the transport header looks the same in either direction; a message's
 * direction is in the RPC message after it, whose second word is {@code msg_type}
 * (RFC 5531 §9: CALL 0, REPLY 1). A requester that receives
 * a CALL has received a backward-direction call; a responder that receives a REPLY has
 * received the reply to one of its backward-direction calls.
 */
final class BackwardDirection {

	/** RFC 5531 §9 msg_type CALL. */
	static final int CALL = 0;

	/** RFC 5531 §9 msg_type REPLY. */
	static final int REPLY = 1;

	/**
	 * Backward-direction credits a requester grants when it serves no backward calls: one, so
	 * that a responder learns, one call at a time, that nothing is served (RFC 8167 §6 leaves
	 * the answer of an endpoint without backward-direction support open; this one says so).
	 */
	static final int CREDITS_WITHOUT_HANDLER = 1;

	/** The most backward-direction credits a connection provisions receives for. */
	static final int MAX_CREDITS = 1024;

	private BackwardDirection() {
	}

	/**
	 * RFC 8167 §4.3: an endpoint posts receives for what the other side may send it in both
	 * directions; a backward-direction call (at the requester) or reply (at the responder)
	 * takes one like a forward message. Both connection roles size their receives here.
	 * @param config the forward direction's settings
	 * @param backwardCredits the backward-direction credits, 0 for none
	 * @return the settings with a receive added per backward credit
	 * @throws IllegalArgumentException if the credits are negative or above {@link #MAX_CREDITS}
	 */
	static TransportConfig withBackwardReceives(TransportConfig config, int backwardCredits) {
		if (backwardCredits < 0 || backwardCredits > MAX_CREDITS) {
			throw new IllegalArgumentException(
					"backwardCredits must be within 0 and " + MAX_CREDITS + ", got " + backwardCredits);
		}
		if (backwardCredits == 0) {
			return config;
		}
		return config.withCredits(config.creditsRequested(), config.creditsGranted(),
				config.receiveCount() + backwardCredits);
	}

	/**
	 * @param message the received message
	 * @param payloadOffset where the RPC message starts
	 * @param payloadLength its length
	 * @return the RPC message's msg_type, or -1 when it is too short to have one
	 */
	static int messageType(ByteBuffer message, int payloadOffset, int payloadLength) {
		if (payloadLength < 8) {
			return -1;
		}
		return message.getInt(payloadOffset + 4);
	}

	/**
	 * The reply of a requester that serves no program in the backward direction:
	 * PROG_UNAVAIL (RFC 5531 §9), which tells the responder at once, instead of a silence
	 * that would only end with its call's deadline.
	 * @param xid the backward call's XID
	 * @return the encoded reply
	 */
	static ByteBuffer programUnavailable(int xid) {
		RpcReply reply = RpcReply.progUnavail(xid);
		ByteBuffer encoded = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply));
		RpcMessageCodec.encodeReply(reply, new XdrEncoder(encoded));
		return encoded.flip();
	}

	/**
	 * RFC 8167 §4.3: the requester posts a receive for every backward-direction call it
	 * grants, beyond those for its forward replies. Without a handler it grants one, which the
	 * receive kept for RDMA_ERROR replies covers.
	 */
	static TransportConfig requesterConfig(TransportConfig config, BackwardCallHandler handler, int credits) {
		if (handler == null) {
			return config;
		}
		if (credits < 1) {
			throw new IllegalArgumentException("backwardCredits must be at least 1 for a connection that serves backward"
					+ " calls, got " + credits);
		}
		return withBackwardReceives(config, credits);
	}

	/** @return the receives a requester keeps for backward-direction calls: its credits with a handler, else none */
	static int requesterReceives(BackwardCallHandler handler, int credits) {
		return (handler != null) ? credits : 0;
	}

}
