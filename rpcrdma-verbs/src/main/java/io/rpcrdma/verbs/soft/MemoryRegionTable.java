package io.rpcrdma.verbs.soft;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RemoteAccessError;
import io.rpcrdma.verbs.RemoteAccessException;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.support.RegistrationChecks;

/**
 * The memory translation and protection table of a software RDMA device: allocates
 * unguessable STags and checks every tagged access against the registered regions, the
 * way an RNIC does (RFC 5040 tagged buffer model and error management, RFC 5042). Shared by the software providers
 * (loopback, software iWARP).
 * <p>
 * STags are 32 random bits from a {@link StagGenerator}; the table is an open-addressing
 * hash table keyed by STag whose lookups take no lock and allocate nothing, so the
 * per-operation check on the data path is cheap. Registration, invalidation, rotation and
 * deregistration take a lock.
 * <p>
 * One table serves one device, and every connection of the device reaches it, so a remote
 * access is allowed only to memory offered to the accessing connection (RFC 5040 §8.2,
 * RFC 5042 §5.1): a region with remote access rights, of the queue pair's protection domain,
 * and, once {@linkplain SoftwareMemoryRegion#offerTo offered} to a queue pair, that one only.
 * Anything else (no such STag, memory registered for local access only, another protection
 * domain or connection) is refused as {@link RemoteAccessError#INVALID_STAG} with one and
 * the same message, so a peer cannot tell "not yours" from "does not exist", nor probe which
 * STags the other connections use. Addresses are random per region, so an address tells a
 * peer nothing about where other regions are.
 */
public final class MemoryRegionTable {

	private static final Object TOMBSTONE = new Object();

	private static final int MIN_CAPACITY = 64;

	private static final long PAGE = 4096;

	private final Object lock = new Object();

	private final StagGenerator stags;

	private volatile AtomicReferenceArray<Object> slots = new AtomicReferenceArray<>(MIN_CAPACITY);

	private int live;

	private int used;

	/**
	 * Creates a table drawing STags from a new secure generator.
	 */
	public MemoryRegionTable() {
		this(new StagGenerator());
	}

	/**
	 * Creates a table.
	 * @param stags the STag source
	 */
	public MemoryRegionTable(StagGenerator stags) {
		this.stags = stags;
	}

	/**
	 * Registers the bytes between a direct buffer's position and limit.
	 * @param pd the owning protection domain
	 * @param directBuffer the memory; must be direct and non-empty
	 * @param access the access rights
	 * @return the valid region, with a fresh STag
	 * @throws IllegalArgumentException if the buffer or the access rights are unsuitable
	 */
	public SoftwareMemoryRegion register(ProtectionDomain pd, ByteBuffer directBuffer, Set<AccessFlag> access) {
		Set<AccessFlag> rights = RegistrationChecks.check(directBuffer, access);
		ByteBuffer view = directBuffer.slice();
		int length = view.capacity();
		synchronized (this.lock) {
			SoftwareMemoryRegion region = new SoftwareMemoryRegion(this, pd, view, randomAddress(), length, rights,
					newUniqueStag());
			insert(region);
			return region;
		}
	}

	/**
	 * Finds the region a STag currently names, valid or not. Lock-free and allocation-free.
	 * @param stag the STag
	 * @return the region, or {@code null} if no registered region has this STag now
	 */
	public SoftwareMemoryRegion lookup(int stag) {
		AtomicReferenceArray<Object> table = this.slots;
		int mask = table.length() - 1;
		int i = spread(stag) & mask;
		for (int probes = 0; probes <= mask; probes++) {
			Object slot = table.get(i);
			if (slot == null) {
				return null;
			}
			if (slot != TOMBSTONE) {
				SoftwareMemoryRegion region = (SoftwareMemoryRegion) slot;
				if (region.stag() == stag) {
					return region;
				}
			}
			i = (i + 1) & mask;
		}
		return null;
	}

	/**
	 * Checks a remote tagged access and returns the region it may touch. Checks, in the
	 * order of RFC 5040's tagged buffer checks: the STag names a region offered to the
	 * accessing connection (registered, with a remote access right, in the queue pair's
	 * protection domain, and offered to this queue pair if offered at all: otherwise
	 * {@link RemoteAccessError#INVALID_STAG}, whatever the reason), it is not invalidated,
	 * the needed access right is granted, the tagged offset plus length does not wrap, and
	 * {@code [address, address + length)} lies inside the region. The arithmetic cannot
	 * overflow.
	 * @param stag the STag the peer used
	 * @param address the tagged offset the peer used (unsigned)
	 * @param length the number of bytes, {@code >= 0}
	 * @param required the access right needed ({@code REMOTE_READ} for an RDMA Read source,
	 * {@code REMOTE_WRITE} for an RDMA Write target)
	 * @param pd the protection domain of the queue pair executing the access
	 * @param queuePair the queue pair executing the access (for scoped regions), or
	 * {@code null}
	 * @return the region; the access is at offset {@code address - region.address()}
	 * @throws RemoteAccessException if the access is refused; nothing may be read or
	 * written then
	 */
	public SoftwareMemoryRegion checkRemoteAccess(int stag, long address, int length, AccessFlag required,
			ProtectionDomain pd, Object queuePair) {
		SoftwareMemoryRegion region = lookup(stag);
		if (region == null || !region.reachableBy(pd, queuePair)) {
			throw notOffered(stag);
		}
		if (region.state() == SoftwareMemoryRegion.INVALIDATED) {
			throw new RemoteAccessException(RemoteAccessError.STAG_INVALIDATED, stag,
					"STag " + hex(stag) + " was invalidated; the peer must use a current STag");
		}
		if (!region.grants(required)) {
			throw new RemoteAccessException(RemoteAccessError.ACCESS_RIGHTS, stag, "STag " + hex(stag)
					+ " does not grant " + required + " (granted: " + region.access() + ")");
		}
		if (length < 0) {
			throw new RemoteAccessException(RemoteAccessError.BASE_OR_BOUNDS, stag,
					"Negative length " + length + " for STag " + hex(stag));
		}
		if (Long.compareUnsigned(address + length, address) < 0) {
			throw new RemoteAccessException(RemoteAccessError.TO_WRAP, stag, "Tagged offset " + hexLong(address)
					+ " plus length " + length + " wraps past 2^64 for STag " + hex(stag));
		}
		if (!region.containsRange(address, length)) {
			throw new RemoteAccessException(RemoteAccessError.BASE_OR_BOUNDS, stag,
					"Access [" + hexLong(address) + ", +" + length + ") is outside region [" + hexLong(region.address())
							+ ", +" + region.length() + ") of STag " + hex(stag));
		}
		return region;
	}

	/**
	 * The one refusal for an STag the accessing connection may not use, whatever the reason:
	 * never registered, deregistered, rotated away, local only, or offered to someone else.
	 */
	private static RemoteAccessException notOffered(int stag) {
		return new RemoteAccessException(RemoteAccessError.INVALID_STAG, stag,
				"STag " + hex(stag) + " names no region offered to this connection");
	}

	/**
	 * Checks a local scatter/gather entry: the region must be a valid region of this table,
	 * in the queue pair's protection domain, the range inside it, and if the adapter writes
	 * it, {@link AccessFlag#LOCAL_WRITE} granted. A failure is a local protection error
	 * ({@code LOC_PROT_ERR}) of the work request.
	 * @param region the region of the entry
	 * @param offset the offset into the region
	 * @param length the number of bytes
	 * @param write whether the adapter writes the memory (receive, RDMA Read sink)
	 * @param pd the protection domain of the queue pair
	 * @return {@code null} if allowed, else what is wrong
	 */
	public String checkLocalAccess(MemoryRegion region, int offset, int length, boolean write, ProtectionDomain pd) {
		if (!(region instanceof SoftwareMemoryRegion soft) || soft.table() != this) {
			return "the region was not registered on this device";
		}
		if (soft.state() != SoftwareMemoryRegion.VALID) {
			return "the region's STag " + hex(soft.stag()) + " is invalidated or deregistered";
		}
		if (soft.protectionDomain() != pd) {
			return "the region belongs to another protection domain than the queue pair";
		}
		if (offset < 0 || length < 0 || offset > soft.length() - length) {
			return "[" + offset + ", +" + length + ") is outside the region of " + soft.length() + " bytes";
		}
		if (write && !soft.grants(AccessFlag.LOCAL_WRITE)) {
			return "the region lacks LOCAL_WRITE access, which the adapter needs to write into it";
		}
		return null;
	}

	/**
	 * Checks every entry of a scatter/gather list with
	 * {@link #checkLocalAccess(MemoryRegion, int, int, boolean, ProtectionDomain)}.
	 * @param sgList the entries
	 * @param write whether the adapter writes the memory
	 * @param pd the protection domain of the queue pair
	 * @return {@code null} if all are allowed, else what is wrong with the first bad entry
	 */
	public String checkLocalAccess(List<ScatterGatherEntry> sgList, boolean write, ProtectionDomain pd) {
		for (int i = 0; i < sgList.size(); i++) {
			ScatterGatherEntry sge = sgList.get(i);
			String problem = checkLocalAccess(sge.region(), sge.offset(), sge.length(), write, pd);
			if (problem != null) {
				return "Scatter/gather entry " + i + ": " + problem;
			}
		}
		return null;
	}

	/**
	 * Invalidates the region a peer names in a Send with Invalidate (RFC 5040 §6.10), after
	 * checking that it is offered to the receiving connection, as for any remote access
	 * ({@link #checkRemoteAccess}), and still valid.
	 * @param stag the STag to invalidate
	 * @param pd the protection domain of the receiving queue pair
	 * @param queuePair the receiving queue pair (for scoped regions), or {@code null}
	 * @return the invalidated region
	 * @throws RemoteAccessException with {@link RemoteAccessError#INVALID_STAG} if the STag
	 * names nothing offered to this connection, or
	 * {@link RemoteAccessError#STAG_CANNOT_BE_INVALIDATED} if it is already invalid
	 */
	public SoftwareMemoryRegion invalidateRemotely(int stag, ProtectionDomain pd, Object queuePair) {
		synchronized (this.lock) {
			SoftwareMemoryRegion region = lookup(stag);
			if (region == null || !region.reachableBy(pd, queuePair)) {
				// Local memory (a Read sink, receive buffers) and memory offered to another
				// connection are not this peer's to invalidate (RFC 5040 §6.10, RFC 5042 §5.1).
				throw notOffered(stag);
			}
			if (region.state() != SoftwareMemoryRegion.VALID) {
				throw new RemoteAccessException(RemoteAccessError.STAG_CANNOT_BE_INVALIDATED, stag,
						"Send with Invalidate names STag " + hex(stag) + ", which is already invalid");
			}
			synchronized (region) {
				region.setState(SoftwareMemoryRegion.INVALIDATED);
				region.withdrawOffer();
			}
			return region;
		}
	}

	/**
	 * The number of registered regions.
	 * @return the count
	 */
	public int size() {
		synchronized (this.lock) {
			return this.live;
		}
	}

	/**
	 * Every registered region, for teardown.
	 * @return a snapshot
	 */
	public List<SoftwareMemoryRegion> regions() {
		synchronized (this.lock) {
			AtomicReferenceArray<Object> table = this.slots;
			List<SoftwareMemoryRegion> regions = new ArrayList<>(this.live);
			for (int i = 0; i < table.length(); i++) {
				Object slot = table.get(i);
				if (slot != null && slot != TOMBSTONE) {
					regions.add((SoftwareMemoryRegion) slot);
				}
			}
			return regions;
		}
	}

	void invalidate(SoftwareMemoryRegion region) {
		synchronized (this.lock) {
			if (region.state() == SoftwareMemoryRegion.DEREGISTERED) {
				throw new IllegalStateException("Cannot invalidate a deregistered region; register the memory again");
			}
			synchronized (region) {
				region.setState(SoftwareMemoryRegion.INVALIDATED);
				region.withdrawOffer();
			}
		}
	}

	int rotate(SoftwareMemoryRegion region) {
		synchronized (this.lock) {
			if (region.state() == SoftwareMemoryRegion.DEREGISTERED) {
				throw new IllegalStateException("Cannot re-register a deregistered region; register the memory again");
			}
			remove(region);
			int stag = newUniqueStag();
			synchronized (region) {
				// Waits for a placement in progress (SoftwareMemoryRegion#stillOffered), so no
				// byte sent for the old STag lands after the memory has a new one.
				region.setStag(stag);
				// The new STag reaches nobody until it is offered again (RFC 8166 §8: an STag
				// advertised for one RPC must not reach the next user of the memory).
				region.withdrawOffer();
				region.setState(SoftwareMemoryRegion.VALID);
			}
			insert(region);
			return stag;
		}
	}

	boolean deregister(SoftwareMemoryRegion region) {
		synchronized (this.lock) {
			if (region.state() == SoftwareMemoryRegion.DEREGISTERED) {
				return false;
			}
			synchronized (region) {
				region.setState(SoftwareMemoryRegion.DEREGISTERED);
			}
			remove(region);
			return true;
		}
	}

	/**
	 * A random page in [2^40, 2^62): far from zero, far from wrapping, and unrelated to the
	 * addresses of other regions.
	 */
	private long randomAddress() {
		long bits = ((long) this.stags.nextStag() << 32) | (this.stags.nextStag() & 0xFFFF_FFFFL);
		return Math.max(1L << 40, (bits >>> 2) & ~(PAGE - 1));
	}

	private int newUniqueStag() {
		while (true) {
			int stag = this.stags.nextStag();
			if (lookup(stag) == null) {
				return stag;
			}
		}
	}

	private void insert(SoftwareMemoryRegion region) {
		if ((this.used + 1) * 2 > this.slots.length()) {
			rehash();
		}
		AtomicReferenceArray<Object> table = this.slots;
		int mask = table.length() - 1;
		int i = spread(region.stag()) & mask;
		while (true) {
			Object slot = table.get(i);
			if (slot == null || slot == TOMBSTONE) {
				if (slot == null) {
					this.used++;
				}
				table.set(i, region);
				this.live++;
				return;
			}
			i = (i + 1) & mask;
		}
	}

	private void remove(SoftwareMemoryRegion region) {
		AtomicReferenceArray<Object> table = this.slots;
		int mask = table.length() - 1;
		int i = spread(region.stag()) & mask;
		for (int probes = 0; probes <= mask; probes++) {
			Object slot = table.get(i);
			if (slot == null) {
				return;
			}
			if (slot == region) {
				table.set(i, TOMBSTONE);
				this.live--;
				return;
			}
			i = (i + 1) & mask;
		}
	}

	private void rehash() {
		AtomicReferenceArray<Object> old = this.slots;
		int capacity = MIN_CAPACITY;
		while (capacity < (this.live + 1) * 4) {
			capacity <<= 1;
		}
		AtomicReferenceArray<Object> table = new AtomicReferenceArray<>(capacity);
		int mask = capacity - 1;
		for (int j = 0; j < old.length(); j++) {
			Object slot = old.get(j);
			if (slot != null && slot != TOMBSTONE) {
				int i = spread(((SoftwareMemoryRegion) slot).stag()) & mask;
				while (table.get(i) != null) {
					i = (i + 1) & mask;
				}
				table.set(i, slot);
			}
		}
		this.used = this.live;
		this.slots = table;
	}

	private static int spread(int stag) {
		int h = stag * 0x9E3779B9;
		return h ^ (h >>> 16);
	}

	static String hex(int stag) {
		return "0x" + Integer.toHexString(stag);
	}

	static String hexLong(long value) {
		return "0x" + Long.toHexString(value);
	}

}
