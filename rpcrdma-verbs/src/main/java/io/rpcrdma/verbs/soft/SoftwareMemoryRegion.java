package io.rpcrdma.verbs.soft;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;

/**
 * A memory region registered in a {@link MemoryRegionTable}: the software counterpart of
 * an RNIC's memory translation and protection entry.
 */
public final class SoftwareMemoryRegion implements MemoryRegion {

	static final int VALID = 0;

	static final int INVALIDATED = 1;

	static final int DEREGISTERED = 2;

	private static final int REMOTE_BITS = (1 << AccessFlag.REMOTE_READ.ordinal()) | (1 << AccessFlag.REMOTE_WRITE.ordinal());

	/** The scope of a region once offered and then withdrawn: no queue pair is this. */
	private static final Object WITHDRAWN = new Object();

	private final MemoryRegionTable table;

	private final ProtectionDomain pd;

	private final ByteBuffer buffer;

	private final ByteBuffer memory;

	private final long address;

	private final int length;

	private final Set<AccessFlag> access;

	private final int accessBits;

	private volatile int stag;

	private volatile int state = VALID;

	private volatile Object scope;

	SoftwareMemoryRegion(MemoryRegionTable table, ProtectionDomain pd, ByteBuffer buffer, long address, int length,
			Set<AccessFlag> access, int stag) {
		this.table = table;
		this.pd = pd;
		this.buffer = buffer;
		this.memory = buffer.duplicate();
		this.address = address;
		this.length = length;
		this.access = Collections.unmodifiableSet(access);
		int bits = 0;
		for (AccessFlag flag : access) {
			bits |= 1 << flag.ordinal();
		}
		this.accessBits = bits;
		this.stag = stag;
	}

	@Override
	public int stag() {
		return this.stag;
	}

	@Override
	public int lkey() {
		return this.stag;
	}

	@Override
	public long address() {
		return this.address;
	}

	@Override
	public int length() {
		return this.length;
	}

	@Override
	public Set<AccessFlag> access() {
		return this.access;
	}

	@Override
	public ByteBuffer buffer() {
		return this.buffer;
	}

	@Override
	public ProtectionDomain protectionDomain() {
		return this.pd;
	}

	@Override
	public boolean isValid() {
		return this.state == VALID;
	}

	@Override
	public boolean isRegistered() {
		return this.state != DEREGISTERED;
	}

	@Override
	public void invalidate() {
		this.table.invalidate(this);
	}

	@Override
	public int reregister() {
		return this.table.rotate(this);
	}

	@Override
	public void deregister() {
		if (this.table.deregister(this) && this.pd instanceof SoftwareProtectionDomain soft) {
			soft.regionDeregistered(this);
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Also used by tests to bind a region to any object standing for a connection.
	 */
	@Override
	public void offerTo(QueuePair queuePair) {
		offerToConnection(queuePair);
	}

	/**
	 * Restricts remote access to one connection (see {@link #offerTo(QueuePair)}).
	 * @param queuePair the object the provider passes as the accessing queue pair
	 */
	public void offerToConnection(Object queuePair) {
		if (this.state == DEREGISTERED) {
			throw new IllegalStateException("Cannot offer a deregistered region; register the memory again");
		}
		this.scope = Objects.requireNonNull(queuePair, "offerTo needs the queue pair to offer the region to");
	}

	/**
	 * Whether a queue pair may reach this region remotely at all: registered, with a remote
	 * access right, of its protection domain, and offered to it if offered to anyone.
	 * @param pd the protection domain of the accessing queue pair
	 * @param queuePair the accessing queue pair
	 * @return {@code true} if reachable
	 */
	boolean reachableBy(ProtectionDomain pd, Object queuePair) {
		Object offered = this.scope;
		return this.state != DEREGISTERED && (this.accessBits & REMOTE_BITS) != 0 && this.pd == pd
				&& (offered == null || offered == queuePair);
	}

	/**
	 * Whether bytes a peer sent for {@code stag} may still be placed here: the STag still
	 * names this region, valid and offered to the placing queue pair (RFC 5041 §7: each tagged
	 * segment is checked against its STag; RFC 8166 §8). A placer holds the region's monitor
	 * while it checks and copies, and invalidation and re-registration take the same monitor, so
	 * no byte sent under an STag lands once the memory is given out under another. The check is
	 * made for every piece a segment arrives in, so a segment that straddles a release places
	 * nothing after it. Copy without blocking while holding the monitor.
	 * @param stag the STag of the segment
	 * @param pd the protection domain of the placing queue pair
	 * @param queuePair the placing queue pair
	 * @return whether the bytes may be placed now
	 */
	public boolean stillOffered(int stag, ProtectionDomain pd, Object queuePair) {
		return this.stag == stag && this.state == VALID && reachableBy(pd, queuePair);
	}

	/** After an invalidation or a new STag: nobody reaches it until it is offered again. */
	void withdrawOffer() {
		if (this.scope != null) {
			this.scope = WITHDRAWN;
		}
	}

	/**
	 * Whether the region grants an access right.
	 * @param flag the right
	 * @return {@code true} if granted
	 */
	public boolean grants(AccessFlag flag) {
		return (this.accessBits & (1 << flag.ordinal())) != 0;
	}

	/**
	 * Whether {@code [address, address + length)} lies inside the region; overflow-safe
	 * for any unsigned address and non-negative length.
	 * @param address the start (unsigned)
	 * @param length the number of bytes
	 * @return {@code true} if inside
	 */
	public boolean containsRange(long address, int length) {
		if (length < 0 || Long.compareUnsigned(address, this.address) < 0) {
			return false;
		}
		long offset = address - this.address;
		// offset is unsigned and may be huge; compare against the region length first.
		return Long.compareUnsigned(offset, this.length) <= 0 && offset <= (long) this.length - length;
	}

	/**
	 * The offset into the region of an address known to be inside it.
	 * @param address an address inside the region
	 * @return the offset into {@link #buffer()}
	 */
	public int offsetOf(long address) {
		return (int) (address - this.address);
	}

	/**
	 * The provider's own view of the memory, never handed to applications, so that absolute bulk
	 * operations on it are not affected by what callers do with {@link #buffer()}'s
	 * position and limit.
	 * Software providers in other packages (siw) place data through it.
	 * @return the private view
	 */
	public ByteBuffer memory() {
		return this.memory;
	}

	MemoryRegionTable table() {
		return this.table;
	}

	int state() {
		return this.state;
	}

	void setState(int state) {
		this.state = state;
	}

	void setStag(int stag) {
		this.stag = stag;
	}

	@Override
	public String toString() {
		return "MemoryRegion[stag=" + MemoryRegionTable.hex(this.stag) + ", address="
				+ MemoryRegionTable.hexLong(this.address) + ", length=" + this.length + ", access=" + this.access
				+ ", state=" + (this.state == VALID ? "valid" : this.state == INVALIDATED ? "invalidated" : "deregistered")
				+ "]";
	}

}
