package io.rpcrdma.verbs;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A protection domain (verbs {@code ibv_pd}, RFC 5040 glossary): memory regions and queue pairs
 * belong to one, and a queue pair may only use regions of its own domain, locally or
 * remotely. Thread-safe.
 */
public interface ProtectionDomain extends AutoCloseable {

	/**
	 * The provider (device) this domain was allocated on.
	 * @return the owning provider
	 */
	RdmaProvider provider();

	/**
	 * Registers the bytes between the buffer's position and limit (verbs
	 * {@code ibv_reg_mr}). Registration is expensive on real adapters: register once and
	 * reuse, never per operation (see the memory pools in {@code io.rpcrdma.memory}).
	 * @param directBuffer a direct buffer; its position and limit at the time of the call
	 * delimit the region; later changes to them do not affect the registration
	 * @param access the access rights; {@link AccessFlag#REMOTE_WRITE} requires
	 * {@link AccessFlag#LOCAL_WRITE}, and a read-only buffer admits no write access
	 * @return the registered region with a fresh, unguessable STag
	 * @throws IllegalArgumentException if the buffer is not direct, is empty, or the
	 * access rights are inconsistent
	 * @throws IllegalStateException if the domain is closed
	 */
	MemoryRegion registerMemory(ByteBuffer directBuffer, Set<AccessFlag> access);

	/**
	 * The number of regions currently registered in this domain, for leak checks.
	 * @return the number of registered regions
	 */
	int registeredRegionCount();

	/**
	 * Whether {@link #close()} has run.
	 * @return {@code true} once closed
	 */
	boolean isClosed();

	/**
	 * Deallocates the domain (verbs {@code ibv_dealloc_pd}), deregistering any region
	 * still registered in it. Idempotent.
	 */
	@Override
	void close();

}
