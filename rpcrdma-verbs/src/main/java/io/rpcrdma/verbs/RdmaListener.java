package io.rpcrdma.verbs;

import java.net.InetSocketAddress;

/**
 * A listening endpoint (rdma_cm {@code rdma_listen}).
 */
public interface RdmaListener extends AutoCloseable {

	/**
	 * The address bound, with the actual port if port 0 was asked for.
	 * @return the address peers connect to
	 */
	InetSocketAddress localAddress();

	/**
	 * Stops listening; established connections stay up. Idempotent.
	 */
	@Override
	void close();

}
