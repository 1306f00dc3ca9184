package io.rpcrdma.memory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;

/**
 * Registers direct buffers that callers supply (rather than lease from a
 * {@link RegisteredMemoryPool}) once, and reuses the registration each time the same
 * memory is used again, so that an application that sends from or receives into its own
 * long-lived buffers does not register on every RPC (RFC 5666 §7).
 *
 * <h2>What is "the same memory"</h2>
 * A C registration cache keys on the virtual address range and must hook {@code free}
 * and {@code munmap} to drop stale entries. Java 17 has no public API for a direct
 * buffer's native address ({@code MemorySegment.ofBuffer(...).address()} is final only
 * in Java 22; {@code sun.nio.ch.DirectBuffer} and {@code Unsafe} are internal), so this
 * cache keys on the buffer <em>object</em>, by identity, and the range between its
 * position and limit. That is also what makes it safe without hooks: an entry holds a
 * strong reference to the buffer, so its memory cannot be freed and reused while the
 * registration exists. The price is that a {@code duplicate()} or {@code slice()} of a
 * cached buffer is a different object and misses; pass the same buffer object, with
 * position and limit around the bytes in question.
 * <p>
 * A registration with local access only serves any range inside the registered one. A
 * registration that grants the peer access ({@link AccessFlag#REMOTE_READ} or
 * {@link AccessFlag#REMOTE_WRITE}) serves only exactly its own range, because its STag
 * exposes the whole registered range and the peer must not reach bytes the caller did
 * not mean to expose. Access rights must match exactly, for the same reason.
 *
 * <h2>Lifetime, eviction and STags</h2>
 * {@link #acquire(ByteBuffer, Set)} returns a {@link CachedRegistration} and counts a
 * reference; {@link CachedRegistration#release()} drops it. An entry in use is never
 * evicted. Idle entries are kept in least-recently-used order and deregistered when the
 * cache holds more than {@code maxEntries} entries or {@code maxBytes} registered bytes;
 * entries in use may take the cache over those bounds until they are released (the
 * registration is needed either way). When the last reference to an entry with remote
 * access is released, its region is re-registered under a fresh STag, so an STag that
 * was advertised for an RPC stops working when the RPC completes (RFC 8166 §8, RFC 5042
 * §5); two RPCs that use the same entry at once share its STag until both complete.
 * <p>
 * Thread-safe; one lock guards the table, and registration happens outside it.
 */
public final class RegistrationCache implements AutoCloseable {

	private final ProtectionDomain protectionDomain;

	private final int maxEntries;

	private final long maxBytes;

	private final Object lock = new Object();

	/** Entries by buffer identity; entries of one buffer are chained. Guarded by lock. */
	private final IdentityHashMap<ByteBuffer, Entry> byBuffer = new IdentityHashMap<>();

	/** Idle entries, most recently used first. Guarded by lock. */
	private Entry idleHead;

	private Entry idleTail;

	private int entries;

	private int inUse;

	private long registeredBytes;

	private long hits;

	private long misses;

	private long evictions;

	private long registrations;

	private long deregistrations;

	private long stagRotations;

	private boolean closed;

	/**
	 * Creates a cache bounded by entry count only.
	 * @param protectionDomain where to register
	 * @param maxEntries the most idle-or-busy entries kept (at least 1)
	 */
	public RegistrationCache(ProtectionDomain protectionDomain, int maxEntries) {
		this(protectionDomain, maxEntries, Long.MAX_VALUE);
	}

	/**
	 * Creates a cache.
	 * @param protectionDomain where to register
	 * @param maxEntries the most entries kept (at least 1)
	 * @param maxBytes the most bytes kept registered (at least 1)
	 * @throws IllegalArgumentException if a bound is not positive
	 */
	public RegistrationCache(ProtectionDomain protectionDomain, int maxEntries, long maxBytes) {
		this.protectionDomain = Objects.requireNonNull(protectionDomain, "A registration cache needs a ProtectionDomain");
		if (maxEntries < 1) {
			throw new IllegalArgumentException("RegistrationCache maxEntries must be at least 1, got " + maxEntries);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("RegistrationCache maxBytes must be at least 1, got " + maxBytes);
		}
		this.maxEntries = maxEntries;
		this.maxBytes = maxBytes;
	}

	/**
	 * Returns a registration of the bytes between the buffer's position and limit with
	 * exactly the given access rights: a cached one if there is one, else a new one,
	 * which is then cached.
	 * @param directBuffer a direct buffer; its position and limit delimit the bytes
	 * @param access the access rights the use needs
	 * @return the registration; release it when the adapter is done with the memory
	 * @throws IllegalArgumentException if the buffer is not direct or is empty, or the
	 * access rights do not suit it
	 * @throws IllegalStateException if the cache is closed
	 */
	public CachedRegistration acquire(ByteBuffer directBuffer, Set<AccessFlag> access) {
		Objects.requireNonNull(directBuffer, "RegistrationCache.acquire needs a direct ByteBuffer, got null");
		Objects.requireNonNull(access, "RegistrationCache.acquire needs a set of AccessFlag (may be empty), got null");
		if (!directBuffer.isDirect()) {
			throw new IllegalArgumentException("RegistrationCache caches registrations of direct buffers only, got "
					+ directBuffer + "; allocate with ByteBuffer.allocateDirect or lease from a RegisteredMemoryPool");
		}
		int position = directBuffer.position();
		int limit = directBuffer.limit();
		if (position == limit) {
			throw new IllegalArgumentException("Nothing to register: " + directBuffer
					+ " has no bytes between position and limit; set them around the bytes the adapter will use");
		}
		synchronized (this.lock) {
			checkOpen();
			Entry hit = find(directBuffer, position, limit, access);
			if (hit != null) {
				this.hits++;
				retain(hit);
				return new CachedRegistration(this, hit, position - hit.start, limit - position);
			}
			this.misses++;
		}
		Set<AccessFlag> rights = access.isEmpty() ? EnumSet.noneOf(AccessFlag.class) : EnumSet.copyOf(access);
		MemoryRegion region = this.protectionDomain.registerMemory(directBuffer.slice(position, limit - position), rights);
		List<MemoryRegion> evicted = new ArrayList<>(0);
		MemoryRegion duplicate = null;
		CachedRegistration registration;
		try {
			synchronized (this.lock) {
				this.registrations++;
				if (this.closed) {
					duplicate = region;
					throw closedException();
				}
				Entry entry = find(directBuffer, position, limit, access);
				if (entry != null) {
					// Another thread registered the same range meanwhile: use its entry.
					duplicate = region;
				}
				else {
					entry = new Entry(directBuffer, position, limit, rights, region);
					entry.nextSameBuffer = this.byBuffer.put(directBuffer, entry);
					this.entries++;
					this.registeredBytes += entry.length();
				}
				retain(entry);
				registration = new CachedRegistration(this, entry, position - entry.start, limit - position);
				evictOverflow(evicted);
			}
		}
		finally {
			if (duplicate != null) {
				deregister(duplicate);
			}
			deregisterAll(evicted);
		}
		return registration;
	}

	/**
	 * Drops the cached registrations of a buffer, for a caller about to repurpose or
	 * discard it. Idle entries are deregistered now, entries in use when their last
	 * reference is released.
	 * @param directBuffer the buffer object the registrations were acquired with
	 * @return the number of entries dropped
	 */
	public int evict(ByteBuffer directBuffer) {
		List<MemoryRegion> deregister = new ArrayList<>();
		int dropped = 0;
		synchronized (this.lock) {
			Entry entry = this.byBuffer.remove(directBuffer);
			while (entry != null) {
				Entry next = entry.nextSameBuffer;
				entry.nextSameBuffer = null;
				dropEntry(entry, deregister);
				dropped++;
				entry = next;
			}
		}
		deregisterAll(deregister);
		return dropped;
	}

	/**
	 * A snapshot of the cache's counters.
	 * @return the statistics
	 */
	public RegistrationCacheStats stats() {
		synchronized (this.lock) {
			return new RegistrationCacheStats(this.hits, this.misses, this.evictions, this.entries, this.inUse,
					this.registeredBytes, this.registrations, this.deregistrations, this.stagRotations, this.maxEntries,
					this.maxBytes);
		}
	}

	/**
	 * Deregisters every cached registration, including those in use (whose holders must
	 * not use them for I/O any more; releasing them is harmless). Idempotent.
	 */
	@Override
	public void close() {
		List<MemoryRegion> deregister = new ArrayList<>();
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			for (Entry head : this.byBuffer.values()) {
				for (Entry entry = head; entry != null; entry = entry.nextSameBuffer) {
					entry.removed = true;
					deregister.add(entry.region);
				}
			}
			this.byBuffer.clear();
			this.idleHead = null;
			this.idleTail = null;
			this.entries = 0;
			this.inUse = 0;
			this.registeredBytes = 0;
		}
		deregisterAll(deregister);
	}

	/**
	 * Drops one reference; called by {@link CachedRegistration#release()}.
	 */
	void release(Entry entry) {
		MemoryRegion deregister = null;
		List<MemoryRegion> evicted = new ArrayList<>(0);
		synchronized (this.lock) {
			if (--entry.refCount > 0 || this.closed) {
				return;
			}
			this.inUse--;
			if (entry.removed) {
				// Evicted by evict(buffer) while in use: its last user is gone now.
				deregister = entry.region;
				this.entries--;
				this.registeredBytes -= entry.length();
			}
			else {
				if (entry.remote) {
					// The STag was advertised for the RPC that just completed; the next user
					// gets a fresh one (RFC 8166 §8).
					entry.region.reregister();
					this.stagRotations++;
				}
				linkIdle(entry);
				evictOverflow(evicted);
			}
		}
		if (deregister != null) {
			deregister(deregister);
		}
		deregisterAll(evicted);
	}

	private Entry find(ByteBuffer buffer, int position, int limit, Set<AccessFlag> access) {
		for (Entry entry = this.byBuffer.get(buffer); entry != null; entry = entry.nextSameBuffer) {
			boolean covers = entry.remote ? (entry.start == position && entry.end == limit)
					: (entry.start <= position && limit <= entry.end);
			if (covers && entry.access.equals(access)) {
				return entry;
			}
		}
		return null;
	}

	private void retain(Entry entry) {
		if (entry.refCount++ == 0) {
			unlinkIdle(entry); // a no-op for a new entry, which is not on the idle list yet
			this.inUse++;
		}
	}

	/** Evicts least recently used idle entries while over a bound. Under lock. */
	private void evictOverflow(List<MemoryRegion> deregister) {
		while ((this.entries > this.maxEntries || this.registeredBytes > this.maxBytes) && this.idleTail != null) {
			Entry victim = this.idleTail;
			unlinkFromBuffer(victim);
			dropEntry(victim, deregister);
			this.evictions++;
		}
	}

	/** Removes an entry that is no longer in the buffer map. Under lock. */
	private void dropEntry(Entry entry, List<MemoryRegion> deregister) {
		entry.removed = true;
		if (entry.refCount == 0) {
			unlinkIdle(entry);
			deregister.add(entry.region);
			this.entries--;
			this.registeredBytes -= entry.length();
		}
	}

	private void unlinkFromBuffer(Entry entry) {
		Entry head = this.byBuffer.get(entry.buffer);
		if (head == entry) {
			if (entry.nextSameBuffer == null) {
				this.byBuffer.remove(entry.buffer);
			}
			else {
				this.byBuffer.put(entry.buffer, entry.nextSameBuffer);
			}
		}
		else {
			Entry previous = head;
			while (previous != null && previous.nextSameBuffer != entry) {
				previous = previous.nextSameBuffer;
			}
			if (previous != null) {
				previous.nextSameBuffer = entry.nextSameBuffer;
			}
		}
		entry.nextSameBuffer = null;
	}

	private void linkIdle(Entry entry) {
		entry.previousIdle = null;
		entry.nextIdle = this.idleHead;
		if (this.idleHead != null) {
			this.idleHead.previousIdle = entry;
		}
		this.idleHead = entry;
		if (this.idleTail == null) {
			this.idleTail = entry;
		}
	}

	private void unlinkIdle(Entry entry) {
		if (entry.previousIdle != null) {
			entry.previousIdle.nextIdle = entry.nextIdle;
		}
		else if (this.idleHead == entry) {
			this.idleHead = entry.nextIdle;
		}
		if (entry.nextIdle != null) {
			entry.nextIdle.previousIdle = entry.previousIdle;
		}
		else if (this.idleTail == entry) {
			this.idleTail = entry.previousIdle;
		}
		entry.previousIdle = null;
		entry.nextIdle = null;
	}

	private void deregisterAll(List<MemoryRegion> regions) {
		for (MemoryRegion region : regions) {
			deregister(region);
		}
	}

	private void deregister(MemoryRegion region) {
		region.deregister();
		synchronized (this.lock) {
			this.deregistrations++;
		}
	}

	private void checkOpen() {
		if (this.closed) {
			throw closedException();
		}
	}

	private static IllegalStateException closedException() {
		return new IllegalStateException("The registration cache is closed; create a new one to register buffers");
	}

	/**
	 * One cached registration. Fields are guarded by the cache's lock, except the final
	 * ones.
	 */
	static final class Entry {

		final ByteBuffer buffer;

		final int start;

		final int end;

		final Set<AccessFlag> access;

		final boolean remote;

		final MemoryRegion region;

		int refCount;

		boolean removed;

		Entry nextSameBuffer;

		Entry previousIdle;

		Entry nextIdle;

		Entry(ByteBuffer buffer, int start, int end, Set<AccessFlag> access, MemoryRegion region) {
			this.buffer = buffer;
			this.start = start;
			this.end = end;
			this.access = access;
			this.remote = access.contains(AccessFlag.REMOTE_READ) || access.contains(AccessFlag.REMOTE_WRITE);
			this.region = region;
		}

		int length() {
			return this.end - this.start;
		}

	}

}
