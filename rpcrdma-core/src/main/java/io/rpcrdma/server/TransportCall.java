package io.rpcrdma.server;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.BiConsumer;

import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.transport.BackwardCalls;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.transport.OutboundReply;
import io.rpcrdma.transport.ReplySender;

/**
 * One call the transport handed to an {@link RpcServer}, on its way through the
 * {@link RpcDispatcher}: the reply buffer it is encoded in, where the reply goes, and what
 * happens once the dispatcher is done with it. One object per call in place of a buffer
 * supplier, a sink and a completion action each.
 */
final class TransportCall implements ReplyBufferSupplier, ReplySink, BiConsumer<DispatchOutcome, Throwable> {

	private final ReplySender sender;

	/** The call's message, kept reachable until the dispatcher is done reading it. */
	private final ByteBuffer message;

	private final int capacity;

	private final ReplyBufferPool buffers;

	private final UnsentReplies unsent;

	/**
	 * @param sender the transport's sender of this call's reply
	 * @param message the call's message
	 * @param capacity the reply buffer's size ({@link RpcServer#replyCapacity})
	 * @param buffers where reply buffers come from
	 * @param unsent counts the replies handed to the transport and not yet sent
	 */
	TransportCall(ReplySender sender, ByteBuffer message, int capacity, ReplyBufferPool buffers, UnsentReplies unsent) {
		this.sender = sender;
		this.message = message;
		this.capacity = capacity;
		this.buffers = buffers;
		this.unsent = unsent;
	}

	@Override
	public BackwardCalls backwardCalls() {
		return this.sender.backwardCalls();
	}

	@Override
	public Object connection() {
		return this.sender.connection();
	}

	@Override
	public java.util.concurrent.CompletableFuture<Void> connectionClosed() {
		return this.sender.connectionClosed();
	}

	@Override
	public ConfigRdmaReply configureInBand(ConfigRdmaRequest request) {
		return this.sender.configureInBand(request);
	}

	@Override
	public ByteBuffer acquire(int xid) {
		return this.buffers.acquire(this.capacity);
	}

	@Override
	public void release(ByteBuffer buffer) {
		this.buffers.release(buffer);
	}

	@Override
	public void send(int xid, ByteBuffer reply) {
		try {
			this.unsent.sending();
			try {
				this.sender.replyInline(reply, this.unsent);
			}
			catch (RuntimeException ex) {
				this.unsent.replied(xid, ex);
				throw ex;
			}
		}
		finally {
			// The transport copied the reply out before returning.
			this.buffers.release(reply);
		}
	}

	@Override
	public boolean conveysChunks() {
		return true;
	}

	@Override
	public void send(int xid, ByteBuffer reply, List<DdpRange> ddpItems) {
		try {
			send(xid, new OutboundReply(reply, ddpItems));
		}
		finally {
			this.buffers.release(reply);
		}
	}

	private void send(int xid, OutboundReply reply) {
		this.unsent.sending();
		try {
			this.sender.reply(reply, this.unsent);
		}
		catch (RuntimeException ex) {
			this.unsent.replied(xid, ex);
			throw ex;
		}
	}

	@Override
	public boolean replyTooLarge(int xid, int bufferSize) {
		this.sender.replyTooLarge(bufferSize + 1L);
		return true;
	}

	/** The dispatcher is done with the call: give the credit back if nothing was sent. */
	@Override
	public void accept(DispatchOutcome result, Throwable error) {
		if (error != null || result != DispatchOutcome.REPLIED && result != DispatchOutcome.REPLIED_FROM_CACHE
				&& result != DispatchOutcome.REJECTED_OVERLOADED) {
			this.sender.drop();
		}
		// Neither the sender nor the message is used again: the transport may reuse them.
		this.sender.release();
	}

}
