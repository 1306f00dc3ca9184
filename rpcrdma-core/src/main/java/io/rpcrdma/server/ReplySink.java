package io.rpcrdma.server;

import java.nio.ByteBuffer;

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

}
