package io.rpcrdma.verbs;

import java.net.InetSocketAddress;

/**
 * An incoming connection request (rdma_cm {@code RDMA_CM_EVENT_CONNECT_REQUEST}); answer it
 * exactly once with {@link #accept} or {@link #reject}, before the requester's timeout.
 */
public interface ConnectionRequest {

	/**
	 * The requester's address.
	 * @return the address
	 */
	InetSocketAddress remoteAddress();

	/**
	 * The listening address the request arrived at.
	 * @return the address
	 */
	InetSocketAddress localAddress();

	/**
	 * The requester's private data.
	 * @return the private data
	 */
	PrivateData privateData();

	/**
	 * Accepts the request (rdma_cm {@code rdma_accept}) with a queue pair of the listener's
	 * provider in {@link QueuePairState#INIT}; post its receives before calling this.
	 * @param queuePair the queue pair to connect
	 * @param privateData returned to the requester
	 * @param listener receives this connection's events
	 * @return the connection, established
	 * @throws ConnectionFailedException if the request expired (the requester timed out)
	 * or was already answered
	 */
	RdmaConnection accept(QueuePair queuePair, PrivateData privateData, ConnectionEventListener listener);

	/**
	 * Rejects the request (rdma_cm {@code rdma_reject}); the requester's connect fails with
	 * {@link ConnectionRejectedException} carrying the private data.
	 * @param privateData returned to the requester
	 */
	void reject(PrivateData privateData);

}
