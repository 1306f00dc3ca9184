package io.rpcrdma.server;

import java.nio.ByteBuffer;

/**
 * Supplies the buffers replies are encoded into, so that results are written once, straight
 * into memory the transport can send (a registered send buffer, or a reply chunk's staging
 * buffer). Implemented by the transport, one per connection.
 */
@FunctionalInterface
public interface ReplyBufferSupplier {

	/**
	 * Returns a buffer for the reply to a call. The dispatcher writes the reply from the
	 * buffer's position up to at most its limit, then passes the buffer to
	 * {@link ReplySink#send}, or back to {@link #release} if it sends nothing after all.
	 * @param xid the xid of the call being answered
	 * @return a buffer the dispatcher owns until it sends or releases it
	 * @throws RuntimeException if no buffer is available; the call is then dropped and logged
	 */
	ByteBuffer acquire(int xid);

	/**
	 * Takes back a buffer that was acquired but not sent.
	 * @param buffer the buffer
	 */
	default void release(ByteBuffer buffer) {
	}

}
