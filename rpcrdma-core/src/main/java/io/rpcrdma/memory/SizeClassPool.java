package io.rpcrdma.memory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.rpcrdma.verbs.MemoryRegion;

/**
 * The buffers of one {@link SizeClass}: a lock-free free stack for the lease/release fast
 * path, a lock for growth (registration), and a lock plus condition for lessees waiting
 * on an exhausted class.
 * <p>
 * The free stack is a Treiber stack of slot indices whose head packs a 32-bit version
 * stamp with the top index into one {@code long}. Slots are reused, so a plain reference
 * stack would suffer the ABA problem (a stale head compared equal after pop-pop-push and
 * two lessees got one slot); the stamp changes on every push and pop, so such a stale
 * compare-and-set fails. Neither push nor pop allocates.
 */
final class SizeClassPool {

	private static final long EMPTY = Slot.NONE & 0xFFFF_FFFFL;

	private static final int SEGMENT_SHIFT = 10;

	private static final int SEGMENT_MASK = (1 << SEGMENT_SHIFT) - 1;

	private static final long PAGE = 4096;

	/** Shared source of zeros for scrubbing; read only with absolute operations. */
	private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 << 10).asReadOnlyBuffer();

	final RegisteredMemoryPool pool;

	final SizeClass sizeClass;

	final int bufferSize;

	/** The pool's budget this class registers from. */
	final RegistrationBudget budget;

	private final boolean advertised;

	private final boolean scrub;

	private final boolean tracking;

	/** The most slots the class can ever hold: its maxBuffers, or what the budget admits. */
	private final int capacity;

	/** Buffers per allocation: a slab's worth, or one for buffers of a slab or more. */
	private final int perAllocation;

	/** Slot table by index, in segments so that it grows without copying. */
	private final Slot[][] segments;

	private final AtomicLong head = new AtomicLong(EMPTY);

	private final AtomicInteger leased = new AtomicInteger();

	private final AtomicInteger waiters = new AtomicInteger();

	private final ReentrantLock waitLock = new ReentrantLock();

	private final Condition released = this.waitLock.newCondition();

	private final Object growLock = new Object();

	/** Regions registered for this class; guarded by {@link #growLock}. */
	private final List<MemoryRegion> regions = new ArrayList<>();

	/** Slots created so far (indices {@code 0 .. slotCount - 1}); written under growLock. */
	private volatile int slotCount;

	/** Buffers currently registered: {@link #slotCount} until close, then 0. */
	private volatile int registeredBuffers;

	private final LongAdder leases = new LongAdder();

	private final LongAdder leaseWaits = new LongAdder();

	private final LongAdder exhaustionFailures = new LongAdder();

	SizeClassPool(RegisteredMemoryPool pool, SizeClass sizeClass, MemoryPoolConfig config) {
		this.pool = pool;
		this.sizeClass = sizeClass;
		this.bufferSize = sizeClass.bufferSize();
		this.advertised = sizeClass.role().isAdvertised();
		this.scrub = config.scrubReadChunks() && sizeClass.role() == BufferRole.READ_CHUNK;
		this.tracking = config.leakTracking();
		this.budget = pool.budgetFor(sizeClass.role());
		this.capacity = (int) Math.min(sizeClass.maxBuffers(), this.budget.limit() / this.bufferSize);
		this.perAllocation = (this.bufferSize >= config.slabSize()) ? 1 : config.slabSize() / this.bufferSize;
		int segmentCount = (int) ((this.capacity + (long) SEGMENT_MASK) >>> SEGMENT_SHIFT);
		this.segments = new Slot[segmentCount][];
	}

	/**
	 * Registers the class's pre-registered buffers; called once, by the pool's constructor.
	 */
	void preRegister() {
		synchronized (this.growLock) {
			int remaining = this.sizeClass.preRegistered();
			while (remaining > 0) {
				int n = Math.min(remaining, this.perAllocation);
				int reserved = this.budget.reserve(this.bufferSize, n);
				if (reserved != n) {
					// MemoryPoolConfig checks that pre-registration fits the budget.
					this.budget.unreserve((long) reserved * this.bufferSize);
					throw new IllegalStateException("Pre-registration of " + this.sizeClass.name()
							+ " exceeds the pool's byte budget; this is a bug in MemoryPoolConfig validation");
				}
				registerSlots(n, 0, false);
				remaining -= n;
			}
		}
	}

	/**
	 * Leases a buffer: from the free stack, else by growing, else (if allowed) by waiting
	 * for a release.
	 * @return the buffer, or {@code null} if none became free in time
	 */
	RegisteredBuffer lease(int requestedLength, long timeoutNanos) throws InterruptedException {
		Slot slot = poll();
		if (slot == null) {
			slot = grow(requestedLength);
		}
		if (slot == null && timeoutNanos > 0) {
			slot = await(timeoutNanos);
		}
		if (slot == null) {
			this.exhaustionFailures.increment();
			return null;
		}
		return handOut(slot);
	}

	/**
	 * Leases a buffer without waiting.
	 * @return the buffer, or {@code null} if the class is exhausted
	 */
	RegisteredBuffer tryLease(int requestedLength) {
		Slot slot = poll();
		if (slot == null) {
			slot = grow(requestedLength);
		}
		if (slot == null) {
			this.exhaustionFailures.increment();
			return null;
		}
		return handOut(slot);
	}

	private RegisteredBuffer handOut(Slot slot) {
		this.leased.incrementAndGet();
		this.leases.increment();
		slot.view.clear();
		RegisteredBuffer buffer = slot.reusable;
		if (buffer == null) {
			buffer = new RegisteredBuffer(slot, RegisteredBuffer.LeaseSite.capture("leased"));
			this.pool.track(buffer);
		}
		buffer.markLeased();
		return buffer;
	}

	/**
	 * Takes a released buffer back: retires its STag if it was advertised, then puts it on
	 * the free stack and wakes a waiting lessee.
	 */
	void release(RegisteredBuffer buffer) {
		Slot slot = buffer.slot();
		if (this.tracking) {
			this.pool.untrack(buffer);
		}
		this.leased.decrementAndGet();
		if (this.pool.isClosed()) {
			return;
		}
		if (this.scrub) {
			// On the releasing thread, not the completion thread a retirement may end on: a
			// scrubbed class holds Read chunks, which a peer may read but never write, so
			// nothing can land in them after this.
			zero(slot.view);
		}
		if (!this.advertised) {
			returnToStack(slot);
			return;
		}
		try {
			// The STag the peer was given for this RPC must die with the RPC (RFC 8166
			// §8.1, RFC 5042 §5) before the buffer can be leased again, so no later lessee
			// ever shares it: rotated at once by registration, or, on an adapter with memory
			// windows, invalidated by a work request whose completion puts the slot back.
			this.pool.stagRotated();
			slot.region.retire(slot.retired);
		}
		catch (IllegalStateException ex) {
			if (this.pool.isClosed()) {
				return; // close() deregistered the region meanwhile
			}
			throw ex;
		}
	}

	/**
	 * Puts a slot whose STag is retired (or that was never advertised) on the free stack and
	 * wakes a waiting lessee.
	 */
	void returnToStack(Slot slot) {
		if (this.pool.isClosed()) {
			return;
		}
		push(slot);
		if (this.waiters.get() > 0) {
			this.waitLock.lock();
			try {
				this.released.signal();
			}
			finally {
				this.waitLock.unlock();
			}
		}
	}

	private Slot await(long timeoutNanos) throws InterruptedException {
		this.leaseWaits.increment();
		this.waitLock.lockInterruptibly();
		try {
			// Announce the waiter before polling again: a releaser pushes and then reads
			// the waiter count, so either this poll sees its slot or it sees this waiter
			// and signals (it can take the lock only once this thread awaits).
			this.waiters.incrementAndGet();
			try {
				long remaining = timeoutNanos;
				while (true) {
					Slot slot = poll();
					if (slot != null) {
						return slot;
					}
					this.pool.checkOpen();
					if (remaining <= 0) {
						return null;
					}
					remaining = this.released.awaitNanos(remaining);
				}
			}
			finally {
				this.waiters.decrementAndGet();
			}
		}
		finally {
			this.waitLock.unlock();
		}
	}

	/**
	 * Registers more buffers if the class's limit and the pool's budget allow.
	 * @return one new (or meanwhile released) slot, or {@code null} if the class cannot grow
	 */
	private Slot grow(int requestedLength) {
		if (this.slotCount >= this.capacity || !this.budget.hasRoomFor(this.bufferSize)) {
			return null; // spare an exhausted class's lessees the grow lock
		}
		synchronized (this.growLock) {
			Slot slot = poll();
			if (slot != null) {
				return slot; // another thread grew the class or released a buffer meanwhile
			}
			this.pool.checkOpen();
			int room = this.capacity - this.slotCount;
			if (room <= 0) {
				return null;
			}
			int n = this.budget.reserve(this.bufferSize, Math.min(room, this.perAllocation));
			if (n == 0) {
				return null;
			}
			return registerSlots(n, requestedLength, true);
		}
	}

	/**
	 * Allocates and registers {@code n} buffers whose bytes are already reserved in the
	 * budget, and adds their slots. Under {@link #growLock}.
	 * @param keepOne whether to return the first new slot instead of pushing it
	 */
	private Slot registerSlots(int n, int requestedLength, boolean keepOne) {
		List<MemoryRegion> created = new ArrayList<>(this.advertised ? n : 1);
		Slot[] slots = new Slot[n];
		int first = this.slotCount;
		try {
			ByteBuffer memory = allocate(n * this.bufferSize, requestedLength);
			if (this.advertised) {
				// One region per buffer so that each buffer's STag can be retired on its own.
				for (int i = 0; i < n; i++) {
					ByteBuffer piece = memory.slice(i * this.bufferSize, this.bufferSize);
					MemoryRegion region = this.pool.protectionDomain().registerMemory(piece, this.sizeClass.access());
					created.add(region);
					slots[i] = new Slot(this, first + i, region, 0, piece, !this.tracking);
				}
			}
			else {
				// One region for the whole slab: these buffers are never advertised.
				MemoryRegion region = this.pool.protectionDomain().registerMemory(memory, this.sizeClass.access());
				created.add(region);
				for (int i = 0; i < n; i++) {
					int offset = i * this.bufferSize;
					slots[i] = new Slot(this, first + i, region, offset, memory.slice(offset, this.bufferSize),
							!this.tracking);
				}
			}
		}
		catch (RuntimeException ex) {
			for (MemoryRegion region : created) {
				region.deregister();
			}
			this.budget.unreserve((long) n * this.bufferSize);
			throw ex;
		}
		this.pool.registered(created.size());
		this.regions.addAll(created);
		for (Slot slot : slots) {
			int segment = slot.index >>> SEGMENT_SHIFT;
			if (this.segments[segment] == null) {
				this.segments[segment] = new Slot[Math.min(SEGMENT_MASK + 1, this.capacity - (segment << SEGMENT_SHIFT))];
			}
			this.segments[segment][slot.index & SEGMENT_MASK] = slot;
		}
		this.slotCount = first + n;
		this.registeredBuffers = first + n;
		for (int i = keepOne ? 1 : 0; i < n; i++) {
			push(slots[i]);
		}
		return keepOne ? slots[0] : null;
	}

	private ByteBuffer allocate(int bytes, int requestedLength) {
		ByteBuffer raw;
		try {
			raw = ByteBuffer.allocateDirect(bytes + (int) PAGE);
		}
		catch (OutOfMemoryError ex) {
			throw new MemoryPoolExhaustedException("Cannot allocate " + ByteSizes.format(bytes)
					+ " of direct memory for size class " + this.sizeClass.name() + " (" + ex.getMessage()
					+ "); raise the JVM's -XX:MaxDirectMemorySize or lower MemoryPoolConfig.maxRegisteredBytes",
					this.sizeClass, requestedLength, ex);
		}
		// Start every allocation on a page boundary, as adapters register whole pages.
		int misalignment = raw.alignmentOffset(0, (int) PAGE);
		int start = (misalignment == 0) ? 0 : (int) PAGE - misalignment;
		return raw.slice(start, bytes);
	}

	private static void zero(ByteBuffer view) {
		int length = view.capacity();
		for (int offset = 0; offset < length; offset += ZEROS.capacity()) {
			view.put(offset, ZEROS, 0, Math.min(ZEROS.capacity(), length - offset));
		}
	}

	Slot poll() {
		while (true) {
			long observed = this.head.get();
			if ((int) observed == Slot.NONE) {
				return null;
			}
			Slot slot = tryPop(observed);
			if (slot != null) {
				return slot;
			}
		}
	}

	/**
	 * The free stack's head as {@link #tryPop(long)} expects it: version stamp in the
	 * high 32 bits, top slot index (or {@link Slot#NONE}) in the low 32 bits.
	 */
	long observeHead() {
		return this.head.get();
	}

	/**
	 * One pop attempt against a previously observed head.
	 * @return the popped slot, or {@code null} if the stack was empty or changed since
	 * {@code observed} was read (including a pop-pop-push that put the same slot back on top)
	 */
	Slot tryPop(long observed) {
		int index = (int) observed;
		if (index == Slot.NONE) {
			return null;
		}
		Slot slot = slot(index);
		long next = (((observed >>> 32) + 1) << 32) | (slot.next & 0xFFFF_FFFFL);
		return this.head.compareAndSet(observed, next) ? slot : null;
	}

	void push(Slot slot) {
		while (true) {
			long current = this.head.get();
			slot.next = (int) current;
			long next = (((current >>> 32) + 1) << 32) | (slot.index & 0xFFFF_FFFFL);
			if (this.head.compareAndSet(current, next)) {
				return;
			}
		}
	}

	private Slot slot(int index) {
		return this.segments[index >>> SEGMENT_SHIFT][index & SEGMENT_MASK];
	}

	/**
	 * Deregisters every region of the class and wakes every waiter (who then fails
	 * because the pool is closed).
	 * @return the number of regions deregistered
	 */
	int close() {
		this.waitLock.lock();
		try {
			this.released.signalAll();
		}
		finally {
			this.waitLock.unlock();
		}
		synchronized (this.growLock) {
			int count = this.regions.size();
			for (MemoryRegion region : this.regions) {
				region.deregister();
			}
			this.regions.clear();
			this.registeredBuffers = 0;
			return count;
		}
	}

	/**
	 * The leases of this class that have not been released, found by scanning the slots;
	 * used when leak tracking is off (every slot has one reusable lease object then).
	 */
	void collectLeased(List<OutstandingLease> into) {
		int count = this.slotCount;
		for (int i = 0; i < count; i++) {
			RegisteredBuffer buffer = slot(i).reusable;
			if (buffer != null && buffer.isLeased()) {
				into.add(buffer.describeLease());
			}
		}
	}

	int registeredBuffers() {
		return this.registeredBuffers;
	}

	int leasedBuffers() {
		return this.leased.get();
	}

	boolean atMaxBuffers() {
		return this.slotCount >= this.sizeClass.maxBuffers();
	}

	SizeClassStats stats() {
		int registered = this.registeredBuffers;
		int leasedNow = this.leased.get();
		int free = Math.max(0, registered - leasedNow);
		return new SizeClassStats(this.sizeClass.name(), this.sizeClass.role(), this.bufferSize, registered, leasedNow,
				free, (long) registered * this.bufferSize, (long) leasedNow * this.bufferSize, this.leases.sum(),
				this.leaseWaits.sum(), this.exhaustionFailures.sum());
	}

}
