package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * An encoded RPC reply for the responder's transport to convey.
 *
 * @param message the encoded RPC reply between position and limit; copied before
 * {@link ReplySender#reply} returns
 * @param ddpItems DDP-eligible result items in increasing order; item {@code i} goes into
 * the requester's Write chunk {@code i} if it was offered and is large enough (RFC 8166
 * §3.4.6), else stays inline or, if so configured, goes into a Read chunk (RFC 5666)
 */
public record OutboundReply(ByteBuffer message, List<DdpRange> ddpItems) {

	/**
	 * Validates the reply.
	 */
	public OutboundReply {
		Objects.requireNonNull(message, "message");
		ddpItems = List.copyOf(ddpItems);
		int end = 0;
		for (int i = 0; i < ddpItems.size(); i++) {
			DdpRange item = ddpItems.get(i);
			if (item.offset() < end || item.offset() < 8 || item.paddedEnd() > message.remaining()) {
				throw new IllegalArgumentException("DDP-eligible item " + item + " overlaps another, precedes the RPC"
						+ " header or exceeds the " + message.remaining() + "-byte reply");
			}
			end = item.paddedEnd();
		}
	}

	/**
	 * A reply with nothing DDP-eligible.
	 * @param message the encoded reply
	 * @return the reply
	 */
	public static OutboundReply inline(ByteBuffer message) {
		return new OutboundReply(message, List.of());
	}

}
