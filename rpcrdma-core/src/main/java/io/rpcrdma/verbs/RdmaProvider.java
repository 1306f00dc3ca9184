package io.rpcrdma.verbs;

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
	 * Allocates a protection domain (verbs {@code ibv_alloc_pd}).
	 * @return a new protection domain
	 * @throws IllegalStateException if the provider is closed
	 */
	ProtectionDomain allocateProtectionDomain();

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
