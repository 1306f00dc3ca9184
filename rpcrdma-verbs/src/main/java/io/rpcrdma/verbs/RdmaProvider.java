package io.rpcrdma.verbs;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * An open RDMA provider: one device, like a verbs {@code ibv_context} together with its
 * RDMA connection manager. Obtain one with {@link RdmaProviders#open(String)}.
 * <p>
 * The object graph mirrors verbs: provider → {@link ProtectionDomain} →
 * {@link MemoryRegion}s; completion queues, queue pairs and connections are created from
 * the provider. Closing the provider closes everything created from it and stops its
 * threads.
 */
public interface RdmaProvider extends AutoCloseable {

	/**
	 * The provider name, as selected ({@code loopback}, {@code siw}, {@code disni}).
	 * @return the name
	 */
	String name();

	/**
	 * What this provider can do beyond the common semantics; the layers above use it to
	 * pick a mechanism that works here (for example in-band negotiation when private
	 * data does not travel).
	 * @return the capabilities; {@link ProviderCapabilities#FULL} unless a provider says
	 * otherwise
	 */
	default ProviderCapabilities capabilities() {
		return ProviderCapabilities.FULL;
	}

	/**
	 * Allocates a protection domain (verbs {@code ibv_alloc_pd}).
	 * @return a new protection domain
	 * @throws IllegalStateException if the provider is closed
	 */
	ProtectionDomain allocateProtectionDomain();

	/**
	 * Creates a completion queue (verbs {@code ibv_create_cq} with a completion channel).
	 * @param capacity the most completions it holds; at least the sum of the queue depths
	 * of the queue pairs that use it
	 * @param handler runs when the armed queue receives a completion, or {@code null} for
	 * a queue that is only polled
	 * @return the queue
	 */
	CompletionQueue createCompletionQueue(int capacity, CompletionHandler handler);

	/**
	 * Creates a reliable connected queue pair in {@link QueuePairState#INIT} (verbs
	 * {@code ibv_create_qp}); its protection domain and completion queues must come from
	 * this provider.
	 * @param attributes the protection domain, completion queues, limits and RNR policy
	 * @return the queue pair
	 */
	QueuePair createQueuePair(QueuePairAttributes attributes);

	/**
	 * Listens for connection requests (rdma_cm {@code rdma_bind_addr} + {@code rdma_listen}).
	 * @param address where to listen; port 0 picks a free port (see
	 * {@link RdmaListener#localAddress()})
	 * @param handler answers the requests
	 * @return the listener
	 * @throws RdmaException if the address is in use or cannot be bound
	 */
	RdmaListener listen(InetSocketAddress address, ConnectionRequestHandler handler);

	/**
	 * Connects a queue pair in {@link QueuePairState#INIT} to a listening peer (rdma_cm
	 * {@code rdma_connect}). Post the receives the peer may need before calling this. The
	 * future completes on a provider thread: with the established connection, or with a
	 * {@link ConnectionRejectedException}, {@link ConnectTimeoutException} or
	 * {@link ConnectionRefusedException}; the queue pair is then in error.
	 * @param queuePair the queue pair to connect
	 * @param parameters where to, private data, timeout and event listener
	 * @return the connection, when established
	 */
	CompletableFuture<RdmaConnection> connect(QueuePair queuePair, ConnectParameters parameters);

	/**
	 * Whether {@link #close()} has run.
	 * @return {@code true} once closed
	 */
	boolean isClosed();

	/**
	 * Closes the provider and everything created from it: listeners and connections are
	 * closed, outstanding work is flushed, regions are deregistered and threads stop.
	 * Idempotent.
	 */
	@Override
	void close();

}
