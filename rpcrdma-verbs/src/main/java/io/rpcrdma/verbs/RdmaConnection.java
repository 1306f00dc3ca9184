package io.rpcrdma.verbs;

import java.net.InetSocketAddress;

/**
 * One end of a connection (an rdma_cm {@code rdma_cm_id} with its queue pair).
 */
public interface RdmaConnection extends AutoCloseable {

	/**
	 * The queue pair the connection carries.
	 * @return the queue pair
	 */
	QueuePair queuePair();

	/**
	 * The local address.
	 * @return the local address
	 */
	InetSocketAddress localAddress();

	/**
	 * The peer's address.
	 * @return the peer's address
	 */
	InetSocketAddress remoteAddress();

	/**
	 * The private data the peer sent: its accept on the active side, its connection
	 * request on the passive side.
	 * @return the peer's private data
	 */
	PrivateData remotePrivateData();

	/**
	 * Whether the connection is established and has not failed or been disconnected.
	 * @return {@code true} while usable
	 */
	boolean isConnected();

	/**
	 * Disconnects (rdma_cm {@code rdma_disconnect}): both queue pairs go to error and flush,
	 * both sides get {@link ConnectionEventType#DISCONNECTED}. Idempotent.
	 */
	void disconnect();

	/**
	 * Disconnects and destroys the queue pair.
	 */
	@Override
	default void close() {
		disconnect();
		queuePair().close();
	}

}
