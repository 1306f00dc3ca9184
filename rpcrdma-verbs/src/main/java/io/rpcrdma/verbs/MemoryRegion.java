package io.rpcrdma.verbs;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A registered segment of direct memory (RFC 5666 §2 "Registered Memory"), identified by
 * a steering tag of 32 bits and a 64-bit address, like a verbs {@code ibv_mr} or an
 * iWARP STag (RFC 5040 glossary).
 * <p>
 * The region covers exactly the bytes {@code [address(), address() + length())} of the
 * peer-visible address space; byte {@code i} of {@link #buffer()} is at
 * {@code address() + i}. A peer addresses it with {@link #rkey()} plus an address in that
 * range; the local side refers to it in scatter/gather entries by the region itself
 * ({@link #lkey()}).
 * <p>
 * The steering tag is unguessable and changes on {@link #reregister()}, so an STag that
 * was advertised for one RPC becomes useless once the RPC is done and its region is
 * invalidated (RFC 5042, RFC 8166 on memory protection). Implementations are thread-safe.
 */
public interface MemoryRegion extends AutoCloseable {

	/**
	 * The steering tag a peer uses to address this region (iWARP STag, verbs rkey).
	 * @return the current STag; it changes on {@link #reregister()}
	 */
	int stag();

	/**
	 * The remote key: the same value as {@link #stag()}, under its verbs name.
	 * @return the current remote key
	 */
	default int rkey() {
		return stag();
	}

	/**
	 * The local key used in scatter/gather entries (verbs lkey). Software providers use
	 * the STag for both, like iWARP.
	 * @return the local key
	 */
	int lkey();

	/**
	 * The peer-visible (virtual) address of the first byte of the region; the tagged
	 * offset a peer uses for byte {@code i} is {@code address() + i}.
	 * @return the base address, an unsigned 64-bit value
	 */
	long address();

	/**
	 * The number of registered bytes.
	 * @return the length of the region in bytes
	 */
	int length();

	/**
	 * The access rights given at registration.
	 * @return an unmodifiable set of the granted access flags
	 */
	Set<AccessFlag> access();

	/**
	 * The registered direct memory: a view with position 0 and limit/capacity
	 * {@link #length()}. Providers use only absolute operations on it, so callers may use
	 * its position and limit freely (one thread at a time, like any buffer).
	 * @return the backing direct buffer
	 */
	ByteBuffer buffer();

	/**
	 * The protection domain the region was registered in. Only queue pairs of the same
	 * protection domain may use it, locally or remotely.
	 * @return the owning protection domain
	 */
	ProtectionDomain protectionDomain();

	/**
	 * Whether the STag is currently valid: registered, and not invalidated since the last
	 * registration.
	 * @return {@code true} if local and permitted remote access is possible
	 */
	boolean isValid();

	/**
	 * Whether the region is still registered (it may be invalid but re-registrable).
	 * @return {@code false} once {@link #deregister()} or {@link #close()} ran
	 */
	boolean isRegistered();

	/**
	 * Invalidates the current STag locally (verbs {@code IBV_WR_LOCAL_INV}, RFC 5040
	 * Invalidate STag): every later access through it fails, locally and remotely. The
	 * peer can do the same with {@link SendOpcode#SEND_WITH_INVALIDATE}. Invalidating an
	 * invalid region has no effect.
	 * @throws IllegalStateException if the region was deregistered
	 */
	void invalidate();

	/**
	 * Makes the region valid again under a fresh STag whose key bits are new random
	 * values (like a fast-register work request after an invalidate), so any copy of the
	 * old STag a peer kept no longer works.
	 * @return the new STag
	 * @throws IllegalStateException if the region was deregistered
	 */
	int reregister();

	/**
	 * Retires the STag under which the region was last offered, once its RPC is done (RFC 8166
	 * §8.1: a requester invalidates what it advertised before it reuses the memory), and
	 * tells {@code whenRetired} once no peer can reach the memory through it any more. The
	 * region is then ready to be offered again under a fresh STag.
	 * <p>
	 * The default rotates the STag at once ({@link #reregister()}) and runs {@code whenRetired}
	 * on the calling thread. A provider whose regions are offered through memory windows posts a
	 * local invalidation instead, with no system call, and runs {@code whenRetired} on its
	 * completion thread when the invalidation completes (or at once, when the peer already
	 * invalidated the STag with Send With Invalidate); the caller must not reuse the memory
	 * before that. It never blocks.
	 * @param whenRetired run exactly once, when the old STag is dead
	 * @throws IllegalStateException if the region was deregistered
	 */
	default void retire(Runnable whenRetired) {
		reregister();
		whenRetired.run();
	}

	/**
	 * Offers the region to one connection: until the next {@link #reregister()} or
	 * {@link #invalidate()}, only {@code queuePair} may reach it remotely (RDMA Read, RDMA
	 * Write, Send With Invalidate), and after either no queue pair may until it is offered
	 * again. What a type 2 memory window bound to a queue pair, or a protection domain of the
	 * connection's own, gives on an adapter (RFC 5040 §8.2 "STag ... associated with the
	 * RDMAP stream", RFC 5042 §5.1: a peer reaches only what was advertised to it). The
	 * transport offers every chunk buffer it advertises to the connection it advertises it on,
	 * so a connection that learns (or guesses) another connection's STag finds nothing there.
	 * <p>
	 * A region that was never offered keeps the plain verbs rule: any queue pair of its
	 * protection domain may reach it remotely, within its access rights. A provider that
	 * cannot bind a region to one queue pair leaves it so and says
	 * {@link ProviderCapabilities#connectionScopedRegions() so}.
	 * @param queuePair the only queue pair that may reach the region remotely; of the
	 * region's protection domain
	 * @throws IllegalStateException if the region was deregistered
	 */
	default void offerTo(QueuePair queuePair) {
	}

	/**
	 * Deregisters the region (verbs {@code ibv_dereg_mr}). The STag becomes invalid
	 * forever; the buffer is no longer used by the provider. Idempotent.
	 */
	void deregister();

	/**
	 * The address a peer uses for byte {@code offset} of this region, with the current
	 * STag: what an RPC-over-RDMA chunk segment advertises (RFC 5666 §3.4).
	 * @param offset the offset into the region, {@code 0 <= offset <= length()}
	 * @return the STag and address of that byte
	 */
	default RemoteAddress remoteAddress(int offset) {
		if (offset < 0 || offset > length()) {
			throw new IndexOutOfBoundsException(
					"Offset " + offset + " is outside the region of " + length() + " bytes");
		}
		return new RemoteAddress(address() + offset, stag());
	}

	/**
	 * Same as {@link #deregister()}.
	 */
	@Override
	default void close() {
		deregister();
	}

}
