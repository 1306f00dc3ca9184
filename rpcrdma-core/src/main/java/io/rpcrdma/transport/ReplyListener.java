package io.rpcrdma.transport;

/**
 * Told once when a reply handed to {@link ReplySender#reply(OutboundReply, ReplyListener)} was
 * sent or could not be: the allocation-free form of the future {@link ReplySender#reply}
 * returns, so one listener can serve every call of a server.
 */
@FunctionalInterface
public interface ReplyListener {

	/**
	 * The reply's fate is known. Runs on the transport's completion thread or on the replying
	 * thread; must not block.
	 * @param xid the XID of the call answered
	 * @param failure why the reply was not sent, or {@code null} if it was (and, for RFC 5666
	 * Read chunk replies, the requester sent RDMA_DONE)
	 */
	void replied(int xid, Throwable failure);

}
