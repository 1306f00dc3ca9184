package io.rpcrdma.memory;

import java.util.concurrent.atomic.AtomicBoolean;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RemoteAddress;

/**
 * One use of a registration held by a {@link RegistrationCache}: the caller's bytes are
 * {@link #length()} bytes at {@link #offset()} in {@link #region()}. Release it, exactly
 * once, when the adapter is done with the memory; the registration then stays cached for
 * the next use of the same buffer.
 */
public final class CachedRegistration {

	private final RegistrationCache cache;

	private final RegistrationCache.Entry entry;

	private final int offset;

	private final int length;

	private final AtomicBoolean released = new AtomicBoolean();

	CachedRegistration(RegistrationCache cache, RegistrationCache.Entry entry, int offset, int length) {
		this.cache = cache;
		this.entry = entry;
		this.offset = offset;
		this.length = length;
	}

	/**
	 * The registered region that holds the caller's bytes; it may cover more than them
	 * when a local-only registration of a larger range is reused.
	 * @return the memory region
	 */
	public MemoryRegion region() {
		return this.entry.region;
	}

	/**
	 * Where the caller's bytes (the buffer's position at acquire time) start in
	 * {@link #region()}.
	 * @return the offset in bytes
	 */
	public int offset() {
		return this.offset;
	}

	/**
	 * The number of the caller's bytes (limit minus position at acquire time).
	 * @return the length in bytes
	 */
	public int length() {
		return this.length;
	}

	/**
	 * The address of the caller's first byte.
	 * @return {@code region().address() + offset()}
	 */
	public long address() {
		return this.entry.region.address() + this.offset;
	}

	/**
	 * The local key for scatter/gather entries.
	 * @return the region's lkey
	 */
	public int lkey() {
		return this.entry.region.lkey();
	}

	/**
	 * The STag and address of the caller's first byte, to advertise in a chunk segment.
	 * @return the remote address; valid until the last holder of the registration
	 * releases it
	 * @throws IllegalStateException if the registration grants the peer no access, or was
	 * released
	 */
	public RemoteAddress remoteAddress() {
		if (!this.entry.remote) {
			throw new IllegalStateException("This registration has access " + this.entry.access
					+ ", which gives the peer no access; acquire it with " + AccessFlag.REMOTE_READ + " or "
					+ AccessFlag.REMOTE_WRITE + " to advertise it");
		}
		if (this.released.get()) {
			throw new IllegalStateException("This cached registration was released; acquire it again to advertise it");
		}
		return this.entry.region.remoteAddress(this.offset);
	}

	/**
	 * Whether {@link #release()} has run.
	 * @return {@code true} once released
	 */
	public boolean isReleased() {
		return this.released.get();
	}

	/**
	 * Ends this use of the registration. The registration stays cached; if it grants
	 * remote access and this was its last use, its STag is replaced.
	 * @throws IllegalStateException if this use was already released
	 */
	public void release() {
		if (!this.released.compareAndSet(false, true)) {
			throw new IllegalStateException("CachedRegistration of " + this.length + " bytes at offset " + this.offset
					+ " was already released; release each acquire exactly once");
		}
		this.cache.release(this.entry);
	}

	@Override
	public String toString() {
		return "CachedRegistration[region STag 0x" + Integer.toHexString(this.entry.region.stag()) + ", offset "
				+ this.offset + ", " + this.length + " bytes, access " + this.entry.access
				+ (this.released.get() ? ", released" : "") + "]";
	}

}
