package io.rpcrdma.memory;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;

/**
 * Pre-registered direct memory for the RPC-over-RDMA data path, leased out in size
 * classes as {@link RegisteredBuffer}s.
 * <p>
 * Registering memory costs a system call and page pinning on a real adapter, a large
 * share of a small RPC's cost; RFC 5666 §7 recommends reusable pre-registered pools for
 * headers and chunks. So the pool registers memory in slabs ahead of time (and, when a
 * class runs dry, once more per slab on demand within a byte budget), and leasing and
 * releasing never register: in steady state they are a compare-and-set on a lock-free
 * per-class free stack and allocate nothing.
 *
 * <h2>Size classes and regions</h2>
 * Each {@link SizeClass} serves one {@link BufferRole} and one buffer size;
 * {@link #lease(BufferRole, int)} picks the smallest class of the role that holds the
 * requested length. Memory is allocated {@link MemoryPoolConfig#slabSize()} bytes at a
 * time (page-aligned); a buffer larger than a slab gets an allocation of its own, counted
 * against the same budget.
 * <ul>
 * <li><b>Inline and local buffers</b> ({@link BufferRole#RECEIVE}, {@link BufferRole#SEND},
 * {@link BufferRole#LOCAL_BULK}) are never advertised to the peer, so a slab is one
 * registration and its buffers share its region, each at its own offset.</li>
 * <li><b>Chunk buffers</b> ({@link BufferRole#READ_CHUNK}, {@link BufferRole#WRITE_CHUNK})
 * are advertised in chunk lists (RFC 5666 §3.4), and RFC 8166 §8 (with RFC 5042 §5) asks
 * that an advertised STag stop working when its RPC completes. Buffers cut from one shared
 * region would share one STag, and invalidating it would break every other RPC using the
 * slab. So each chunk buffer gets a memory region of its own, registered once when its
 * memory is first registered and reused for the pool's lifetime, and
 * {@link RegisteredBuffer#release()} re-registers that region under a fresh random STag
 * ({@link MemoryRegion#reregister()}): the old STag is dead before the buffer can be
 * leased again. On software providers that is a table update; it is the analogue of the
 * invalidate-then-fast-register cycle of FRWR on hardware.</li>
 * </ul>
 * Read chunk buffers are zeroed on release when {@link MemoryPoolConfig#scrubReadChunks()}
 * is on, because the peer may read the whole region under the STag, including bytes
 * beyond the segment it was told about.
 *
 * <h2>Limits and back-pressure</h2>
 * The pool never registers more than {@link MemoryPoolConfig#maxReceiveBytes()} for receive
 * buffers and {@link MemoryPoolConfig#maxRegisteredBytes()} for all other buffers: two budgets,
 * so that a flood of connections, each posting its receives, cannot take the memory of bulk
 * calls, nor can bulk calls leave new connections without receives. A class also stops at
 * {@link SizeClass#maxBuffers()}. Memory a class has grown
 * stays with that class until the pool closes (re-registration on every swing would put
 * registration back on the data path), so cap classes that could otherwise take the
 * whole budget. When a class is exhausted, {@link #lease(BufferRole, int)} waits up to
 * {@link MemoryPoolConfig#leaseTimeout()} for a release and then throws
 * {@link MemoryPoolExhaustedException}; {@link #tryLease(BufferRole, int)} never waits.
 * Completion handlers and the receive path must never block (a receive side that waits
 * for a send buffer can deadlock bidirectional traffic), so they use
 * {@link #tryLease(BufferRole, int)} and handle {@code null}; note that both methods
 * register memory when a class grows, which pre-registration avoids.
 *
 * <h2>Leak detection</h2>
 * With {@link MemoryPoolConfig#leakTracking()} on, every lease records its thread and
 * stack, {@link #leaks()} lists the outstanding leases with those sites, every double
 * release is detected, and {@link #close()} throws {@link MemoryPoolLeakException} if any
 * buffer is still leased. This costs an allocation and a stack walk per lease, so it is
 * off by default, where {@link #leaks()} still lists outstanding buffers without sites and
 * {@link #close()} only logs them.
 *
 * <h2>Closing</h2>
 * {@link #close()} wakes and fails waiting lessees and deregisters every region; closing
 * the protection domain afterwards finds nothing of the pool's left registered. Buffers
 * still leased then must not be used for I/O any more; releasing them is harmless.
 * <p>
 * Thread-safe. Lessees waiting on one class do not block other classes.
 */
public final class RegisteredMemoryPool implements AutoCloseable {

	private static final System.Logger logger = System.getLogger(RegisteredMemoryPool.class.getName());

	/**
	 * How long {@link #close()} waits for leased buffers to come back before it reports them:
	 * long enough for the flush completions of connections closed just before, short enough
	 * that a real leak does not hold up a shutdown. {@code RpcServer#shutdown} and
	 * {@code RpcClientPool#close} already return only once their connections' buffers are
	 * back; this covers connections closed by other means ({@code RpcClient#close}).
	 */
	public static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

	/** How long {@link #close()} waits when no leased buffer has come back meanwhile. */
	private static final Duration CLOSE_STALL = Duration.ofMillis(200);

	private final ProtectionDomain protectionDomain;

	private final MemoryPoolConfig config;

	private final SizeClassPool[] classes;

	/** Per role, the role's classes in ascending buffer size. */
	private final SizeClassPool[][] classesByRole;

	/** What receive buffers register: {@link MemoryPoolConfig#maxReceiveBytes()}. */
	private final RegistrationBudget receiveBudget;

	/** What every other role registers: {@link MemoryPoolConfig#maxRegisteredBytes()}. */
	private final RegistrationBudget budget;

	private final LongAdder registrations = new LongAdder();

	private final LongAdder deregistrations = new LongAdder();

	private final LongAdder stagRotations = new LongAdder();

	/** The live leases when leak tracking is on; {@code null} otherwise. */
	private final Set<RegisteredBuffer> tracked;

	private final AtomicBoolean closing = new AtomicBoolean();

	private volatile boolean closed;

	/**
	 * Creates the pool and registers every class's pre-registered buffers in the given
	 * protection domain. If a registration fails, what was registered is deregistered again.
	 * @param protectionDomain the protection domain the memory is registered in; the queue
	 * pairs that use the buffers must belong to it
	 * @param config the settings
	 * @throws IllegalStateException if the protection domain is closed
	 * @throws MemoryPoolExhaustedException if the direct memory cannot be allocated
	 */
	public RegisteredMemoryPool(ProtectionDomain protectionDomain, MemoryPoolConfig config) {
		this.protectionDomain = Objects.requireNonNull(protectionDomain, "A registered memory pool needs a ProtectionDomain");
		this.config = Objects.requireNonNull(config, "A registered memory pool needs a MemoryPoolConfig");
		if (protectionDomain.isClosed()) {
			throw new IllegalStateException("The protection domain is closed; allocate a new one for the memory pool");
		}
		this.tracked = config.leakTracking() ? ConcurrentHashMap.newKeySet() : null;
		this.receiveBudget = new RegistrationBudget("maxReceiveBytes", config.maxReceiveBytes());
		this.budget = new RegistrationBudget("maxRegisteredBytes", config.maxRegisteredBytes());
		List<SizeClass> sizeClasses = config.sizeClasses();
		this.classes = new SizeClassPool[sizeClasses.size()];
		Map<BufferRole, List<SizeClassPool>> byRole = new EnumMap<>(BufferRole.class);
		for (int i = 0; i < this.classes.length; i++) {
			this.classes[i] = new SizeClassPool(this, sizeClasses.get(i), config);
			byRole.computeIfAbsent(sizeClasses.get(i).role(), (role) -> new ArrayList<>()).add(this.classes[i]);
		}
		this.classesByRole = new SizeClassPool[BufferRole.values().length][];
		for (BufferRole role : BufferRole.values()) {
			List<SizeClassPool> list = byRole.getOrDefault(role, List.of());
			SizeClassPool[] sorted = list.toArray(new SizeClassPool[0]);
			Arrays.sort(sorted, Comparator.comparingInt((SizeClassPool pool) -> pool.bufferSize));
			this.classesByRole[role.ordinal()] = sorted;
		}
		try {
			for (SizeClassPool pool : this.classes) {
				pool.preRegister();
			}
		}
		catch (RuntimeException | Error ex) {
			this.closed = true;
			for (SizeClassPool pool : this.classes) {
				this.deregistrations.add(pool.close());
			}
			throw ex;
		}
	}

	/**
	 * Leases a buffer of at least {@code minLength} bytes for a role, waiting up to the
	 * configured {@link MemoryPoolConfig#leaseTimeout()} if its class is exhausted.
	 * @param role what the buffer is for
	 * @param minLength the number of bytes needed; the buffer may be longer
	 * @return the leased buffer; the caller owns it until {@link RegisteredBuffer#release()}
	 * @throws MemoryPoolExhaustedException if no buffer became free in time
	 * @throws IllegalArgumentException if no class of the role is large enough
	 * @throws IllegalStateException if the pool is closed, or closes while waiting
	 * @throws InterruptedException if interrupted while waiting
	 */
	public RegisteredBuffer lease(BufferRole role, int minLength) throws InterruptedException {
		return lease(role, minLength, this.config.leaseTimeout());
	}

	/**
	 * Leases a buffer of at least {@code minLength} bytes for a role, waiting up to
	 * {@code timeout} if its class is exhausted.
	 * @param role what the buffer is for
	 * @param minLength the number of bytes needed; the buffer may be longer
	 * @param timeout how long to wait for a release; zero or negative fails at once
	 * @return the leased buffer; the caller owns it until {@link RegisteredBuffer#release()}
	 * @throws MemoryPoolExhaustedException if no buffer became free in time
	 * @throws IllegalArgumentException if no class of the role is large enough
	 * @throws IllegalStateException if the pool is closed, or closes while waiting
	 * @throws InterruptedException if interrupted while waiting
	 */
	public RegisteredBuffer lease(BufferRole role, int minLength, Duration timeout) throws InterruptedException {
		Objects.requireNonNull(timeout, "Lease needs a timeout; use Duration.ZERO not to wait");
		checkOpen();
		SizeClassPool pool = select(role, minLength);
		long timeoutNanos = saturatedNanos(timeout);
		RegisteredBuffer buffer = pool.lease(minLength, timeoutNanos);
		if (buffer == null) {
			throw exhausted(pool, minLength, timeoutNanos);
		}
		return checkStillOpen(buffer);
	}

	/**
	 * Leases a buffer of at least {@code minLength} bytes for a role if one is free (or
	 * its class can still grow), without waiting.
	 * @param role what the buffer is for
	 * @param minLength the number of bytes needed; the buffer may be longer
	 * @return the leased buffer, or {@code null} if the class is exhausted
	 * @throws IllegalArgumentException if no class of the role is large enough
	 * @throws IllegalStateException if the pool is closed
	 */
	public RegisteredBuffer tryLease(BufferRole role, int minLength) {
		checkOpen();
		RegisteredBuffer buffer = select(role, minLength).tryLease(minLength);
		return (buffer != null) ? checkStillOpen(buffer) : null;
	}

	/**
	 * The largest buffer the pool can lease for a role; larger transfers are split into
	 * several buffers, one per chunk segment (RFC 8166 §3.4.4).
	 * @param role the role
	 * @return the largest buffer size, or 0 if the pool has no class for the role
	 */
	public int largestBufferSize(BufferRole role) {
		SizeClassPool[] candidates = this.classesByRole[role.ordinal()];
		return (candidates.length == 0) ? 0 : candidates[candidates.length - 1].bufferSize;
	}

	/**
	 * How many bytes a lease of {@code minLength} for a role takes from the pool: the size of
	 * the smallest class that holds it. A budget of leases counts this, not the length asked
	 * for, or leases just above a class's size would hold twice what it admitted.
	 * @param role the role
	 * @param minLength the number of bytes a lease would ask for
	 * @return the size of the buffer such a lease gets, or {@code minLength} when no class of
	 * the role holds it (such a lease fails)
	 */
	public long leasedLength(BufferRole role, long minLength) {
		for (SizeClassPool candidate : this.classesByRole[role.ordinal()]) {
			if (candidate.bufferSize >= minLength) {
				return candidate.bufferSize;
			}
		}
		return minLength;
	}

	/**
	 * A snapshot of the pool's gauges and counters.
	 * @return the statistics
	 */
	public MemoryPoolStats stats() {
		List<SizeClassStats> perClass = new ArrayList<>(this.classes.length);
		long registered = 0;
		long leased = 0;
		long free = 0;
		long waits = 0;
		long failures = 0;
		long leases = 0;
		for (SizeClassPool pool : this.classes) {
			SizeClassStats stats = pool.stats();
			perClass.add(stats);
			registered += stats.registeredBytes();
			leased += stats.leasedBytes();
			free += stats.freeBytes();
			waits += stats.leaseWaits();
			failures += stats.exhaustionFailures();
			leases += stats.leases();
		}
		return new MemoryPoolStats(registered, this.config.maxRegisteredBytes() + this.config.maxReceiveBytes(), leased,
				free, this.registrations.sum(),
				this.deregistrations.sum(), this.stagRotations.sum(), leases, waits, failures, perClass);
	}

	/**
	 * The buffers leased and not yet released, oldest first when leak tracking is on
	 * (with the thread and stack that leased each), in class order otherwise (without
	 * lease sites).
	 * @return the outstanding leases; empty if every lease was released
	 */
	public List<OutstandingLease> leaks() {
		List<OutstandingLease> leaks = new ArrayList<>();
		if (this.tracked != null) {
			for (RegisteredBuffer buffer : this.tracked) {
				leaks.add(buffer.describeLease());
			}
			leaks.sort(Comparator.comparing(OutstandingLease::leasedAt));
		}
		else {
			for (SizeClassPool pool : this.classes) {
				pool.collectLeased(leaks);
			}
		}
		return leaks;
	}

	/**
	 * The settings the pool was created with.
	 * @return the configuration
	 */
	public MemoryPoolConfig config() {
		return this.config;
	}

	/**
	 * The protection domain the pool's memory is registered in.
	 * @return the protection domain
	 */
	public ProtectionDomain protectionDomain() {
		return this.protectionDomain;
	}

	/**
	 * Whether {@link #close()} has run.
	 * @return {@code true} once closed
	 */
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Closes the pool: fails waiting lessees, waits up to {@link #CLOSE_GRACE} for leased
	 * buffers to come back (giving up after 200 ms in which none did), and deregisters all
	 * of the pool's memory. Outstanding leases are
	 * then reported: with leak tracking on this throws (after deregistering everything),
	 * otherwise they are logged. Idempotent.
	 * @throws MemoryPoolLeakException if leak tracking is on and buffers are still leased
	 */
	@Override
	public void close() {
		if (!this.closing.compareAndSet(false, true)) {
			return;
		}
		this.closed = true;
		awaitLeasesReturned();
		for (SizeClassPool pool : this.classes) {
			this.deregistrations.add(pool.close());
		}
		List<OutstandingLease> outstanding = leaks();
		if (outstanding.isEmpty()) {
			return;
		}
		if (this.tracked != null) {
			throw new MemoryPoolLeakException(outstanding);
		}
		logger.log(Level.WARNING, () -> "Registered memory pool closed with " + outstanding.size()
				+ " buffer(s) still leased; their memory is deregistered and must not be used for I/O any more. "
				+ "Set MemoryPoolConfig.leakTracking to find where they were leased. Outstanding: " + outstanding);
	}

	/**
	 * A connection that was just closed or failed gets its receive buffers back only as its
	 * queue pair's flush completions arrive, after {@code RpcServer#shutdown} or
	 * {@code RpcClientPool#close} returned; closing the pool right after them must not call
	 * those buffers leaked, nor deregister memory a queue pair is still flushing.
	 */
	private void awaitLeasesReturned() {
		long now = System.nanoTime();
		long deadline = now + CLOSE_GRACE.toNanos();
		// Flushes come back in a burst; a lease that has not moved for a while is a leak, and
		// a leak must not hold every close up for the whole grace period.
		long stalledAt = now + CLOSE_STALL.toNanos();
		int leased = leasedBuffers();
		long pause = 10_000;
		while (leased > 0 && now < deadline && now < stalledAt) {
			LockSupport.parkNanos(pause);
			pause = Math.min(pause * 2, 5_000_000);
			now = System.nanoTime();
			int still = leasedBuffers();
			if (still < leased) {
				stalledAt = now + CLOSE_STALL.toNanos();
			}
			leased = still;
		}
	}

	private int leasedBuffers() {
		int leased = 0;
		for (SizeClassPool pool : this.classes) {
			leased += pool.leasedBuffers();
		}
		return leased;
	}

	@Override
	public String toString() {
		MemoryPoolStats stats = stats();
		return "RegisteredMemoryPool[registered=" + ByteSizes.format(stats.registeredBytes()) + " of "
				+ ByteSizes.format(stats.maxRegisteredBytes()) + ", leased=" + ByteSizes.format(stats.leasedBytes())
				+ ", classes=" + this.classes.length + (this.closed ? ", closed" : "") + "]";
	}

	private SizeClassPool select(BufferRole role, int minLength) {
		Objects.requireNonNull(role, "Lease needs a BufferRole, got null");
		if (minLength < 0) {
			throw new IllegalArgumentException("Cannot lease a buffer of " + minLength + " bytes; ask for zero or more");
		}
		SizeClassPool[] candidates = this.classesByRole[role.ordinal()];
		for (SizeClassPool candidate : candidates) {
			if (candidate.bufferSize >= minLength) {
				return candidate;
			}
		}
		if (candidates.length == 0) {
			throw new IllegalArgumentException("The memory pool has no size class for " + role
					+ " buffers; add one to MemoryPoolConfig.sizeClasses");
		}
		throw new IllegalArgumentException("A " + role + " buffer of " + minLength + " bytes is larger than the pool's largest "
				+ role + " class, " + candidates[candidates.length - 1].sizeClass.name()
				+ "; split the transfer into several buffers (one per chunk segment, RFC 8166 §3.4.4) or add a larger "
				+ "SizeClass to MemoryPoolConfig.sizeClasses");
	}

	private static long saturatedNanos(Duration timeout) {
		try {
			return timeout.toNanos();
		}
		catch (ArithmeticException ex) {
			return timeout.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE; // beyond 292 years: wait "forever"
		}
	}

	private RegisteredBuffer checkStillOpen(RegisteredBuffer buffer) {
		if (this.closed) {
			// close() ran while this lease was being granted: the memory is deregistered.
			buffer.release();
			checkOpen();
		}
		return buffer;
	}

	private MemoryPoolExhaustedException exhausted(SizeClassPool pool, int minLength, long timeoutNanos) {
		SizeClass sizeClass = pool.sizeClass;
		String waited = (timeoutNanos > 0) ? "after waiting " + Duration.ofNanos(timeoutNanos).toMillis() + " ms"
				: "without waiting";
		StringBuilder text = new StringBuilder();
		text.append("No ").append(sizeClass.name()).append(" buffer (").append(ByteSizes.format(pool.bufferSize))
			.append(" each) was free for a lease of ").append(minLength).append(" bytes ").append(waited)
			.append(": all ").append(pool.registeredBuffers()).append(" buffers of the class are leased");
		if (pool.atMaxBuffers()) {
			text.append(" and the class is at its limit of ").append(sizeClass.maxBuffers())
				.append(" buffers. Raise SizeClass.maxBuffers of ").append(sizeClass.name());
		}
		else {
			RegistrationBudget budget = pool.budget;
			long freeElsewhere = 0;
			for (SizeClassPool other : this.classes) {
				if (other != pool && other.budget == budget) {
					freeElsewhere += other.stats().freeBytes();
				}
			}
			text.append(" and the pool has registered ").append(ByteSizes.format(budget.reserved())).append(" of its ")
				.append(ByteSizes.format(budget.limit())).append(' ').append(budget.setting())
				.append(" budget, too little for another ").append(ByteSizes.format(pool.bufferSize)).append(" buffer");
			if (freeElsewhere > 0) {
				text.append(" (").append(ByteSizes.format(freeElsewhere))
					.append(" is registered but free in other classes; cap them with SizeClass.maxBuffers)");
			}
			text.append(". Raise MemoryPoolConfig.").append(budget.setting()).append(" (now ").append(budget.limit())
				.append(" bytes)");
		}
		text.append(", raise MemoryPoolConfig.leaseTimeout to wait longer, or release buffers sooner (check "
				+ "RegisteredMemoryPool.leaks() for buffers that are never released)");
		return new MemoryPoolExhaustedException(text.toString(), sizeClass, minLength, null);
	}

	/**
	 * The class that serves a role and size, for tests of the free list.
	 */
	SizeClassPool sizeClassPool(BufferRole role, int minLength) {
		return select(role, minLength);
	}

	void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException("The registered memory pool is closed; create a new pool to lease buffers");
		}
	}

	/**
	 * The budget a role's classes register from: receive buffers apart from all others.
	 */
	RegistrationBudget budgetFor(BufferRole role) {
		return (role == BufferRole.RECEIVE) ? this.receiveBudget : this.budget;
	}

	void registered(int regions) {
		this.registrations.add(regions);
	}

	void stagRotated() {
		this.stagRotations.increment();
	}

	void track(RegisteredBuffer buffer) {
		this.tracked.add(buffer);
	}

	void untrack(RegisteredBuffer buffer) {
		this.tracked.remove(buffer);
	}

}
