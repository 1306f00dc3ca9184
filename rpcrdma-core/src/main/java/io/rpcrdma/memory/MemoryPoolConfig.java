package io.rpcrdma.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of a {@link RegisteredMemoryPool}. Validated on construction: every message
 * names the setting that is wrong and how to fix it.
 *
 * @param sizeClasses the buffer classes the pool serves; at least one, no two with the
 * same role and size
 * @param slabSize how much direct memory is allocated (and, for inline and local buffers,
 * registered) at a time; buffers up to this size are carved out of slabs, larger ones get
 * an allocation of their own
 * @param maxRegisteredBytes the most bytes the pool registers for send, chunk and local bulk
 * buffers, over all their classes; pre-registered and grown buffers count against it
 * @param leaseTimeout how long {@link RegisteredMemoryPool#lease(BufferRole, int)} waits
 * for a buffer of an exhausted class before failing; zero fails at once
 * @param leakTracking whether to record where each buffer is leased (for tests): costs a
 * stack capture and an allocation per lease, makes every double release detectable and
 * makes {@link RegisteredMemoryPool#close()} fail while buffers are still leased
 * @param scrubReadChunks whether to zero {@link BufferRole#READ_CHUNK} buffers when they
 * are released, so a later RPC's peer cannot read an earlier RPC's data through the part
 * of the buffer beyond its advertised segment
 * @param maxReceiveBytes the most bytes the pool registers for {@link BufferRole#RECEIVE}
 * buffers, apart from {@code maxRegisteredBytes}: every connection posts its receives for as
 * long as it is open, so a flood of connections takes receive memory only and never the
 * memory bulk calls need, and bulk calls never leave a new connection without receives
 */
public record MemoryPoolConfig(List<SizeClass> sizeClasses, int slabSize, long maxRegisteredBytes,
		Duration leaseTimeout, boolean leakTracking, boolean scrubReadChunks, long maxReceiveBytes) {

	/** Default slab size: 1 MiB. */
	public static final int DEFAULT_SLAB_SIZE = 1 << 20;

	/** Default registration budget for all but receive buffers: 256 MiB. */
	public static final long DEFAULT_MAX_REGISTERED_BYTES = 256L << 20;

	/**
	 * Default registration budget for receive buffers: 256 MiB, the receives of 1,600
	 * connections of 40 receives of 4 KiB.
	 */
	public static final long DEFAULT_MAX_RECEIVE_BYTES = 256L << 20;

	/** Default wait for a buffer of an exhausted class: 1 second. */
	public static final Duration DEFAULT_LEASE_TIMEOUT = Duration.ofSeconds(1);

	/** Smallest default chunk class: 4 KiB. */
	public static final int DEFAULT_SMALLEST_CHUNK = 4 << 10;

	/** Largest default chunk class: 16 MiB. */
	public static final int DEFAULT_LARGEST_CHUNK = 16 << 20;

	/** The smallest slab: one 4 KiB page. */
	public static final int MIN_SLAB_SIZE = 4 << 10;

	/** The largest slab: 1 GiB. */
	public static final int MAX_SLAB_SIZE = 1 << 30;

	/**
	 * Validates the settings and takes an immutable copy of the class list.
	 * @throws IllegalArgumentException if a setting is out of range or the classes do not
	 * fit the budget, saying which setting to change
	 * @throws NullPointerException if the class list or the timeout is {@code null}
	 */
	public MemoryPoolConfig {
		Objects.requireNonNull(sizeClasses, "MemoryPoolConfig.sizeClasses must not be null; give at least one SizeClass");
		for (int i = 0; i < sizeClasses.size(); i++) {
			if (sizeClasses.get(i) == null) {
				throw new NullPointerException("MemoryPoolConfig.sizeClasses[" + i + "] is null; remove it");
			}
		}
		sizeClasses = List.copyOf(sizeClasses);
		Objects.requireNonNull(leaseTimeout,
				"MemoryPoolConfig.leaseTimeout must not be null; use Duration.ZERO to fail at once when a class is exhausted");
		if (sizeClasses.isEmpty()) {
			throw new IllegalArgumentException("MemoryPoolConfig.sizeClasses is empty; a pool needs at least one "
					+ "SizeClass (MemoryPoolConfig.defaults(inlineThreshold) has receive, send and chunk classes)");
		}
		Set<String> names = new HashSet<>();
		for (SizeClass sizeClass : sizeClasses) {
			if (!names.add(sizeClass.name())) {
				throw new IllegalArgumentException("MemoryPoolConfig.sizeClasses has two classes named "
						+ sizeClass.name() + " (same role and buffer size); keep one");
			}
		}
		if (slabSize < MIN_SLAB_SIZE || slabSize > MAX_SLAB_SIZE) {
			throw new IllegalArgumentException("MemoryPoolConfig.slabSize must be between " + ByteSizes.format(MIN_SLAB_SIZE)
					+ " and " + ByteSizes.format(MAX_SLAB_SIZE) + ", got " + slabSize + " bytes");
		}
		if (maxRegisteredBytes <= 0) {
			throw new IllegalArgumentException(
					"MemoryPoolConfig.maxRegisteredBytes must be positive, got " + maxRegisteredBytes);
		}
		if (maxReceiveBytes <= 0) {
			throw new IllegalArgumentException("MemoryPoolConfig.maxReceiveBytes must be positive, got " + maxReceiveBytes);
		}
		if (leaseTimeout.isNegative()) {
			throw new IllegalArgumentException("MemoryPoolConfig.leaseTimeout must not be negative, got " + leaseTimeout
					+ "; use Duration.ZERO to fail at once when a class is exhausted");
		}
		checkBudget(sizeClasses, true, "maxReceiveBytes", maxReceiveBytes);
		checkBudget(sizeClasses, false, "maxRegisteredBytes", maxRegisteredBytes);
	}

	/**
	 * Checks that the classes of one budget (receive classes, or all others) pre-register no
	 * more than it holds and that each can lease at least one buffer.
	 */
	private static void checkBudget(List<SizeClass> sizeClasses, boolean receive, String setting, long budget) {
		long preRegisteredBytes = 0;
		for (SizeClass sizeClass : sizeClasses) {
			if ((sizeClass.role() == BufferRole.RECEIVE) == receive) {
				preRegisteredBytes += sizeClass.preRegisteredBytes();
			}
		}
		if (preRegisteredBytes > budget) {
			throw new IllegalArgumentException("The " + (receive ? "receive" : "send, chunk and bulk")
					+ " size classes pre-register " + preRegisteredBytes + " bytes (" + ByteSizes.format(preRegisteredBytes)
					+ ") but MemoryPoolConfig." + setting + " is " + budget + " (" + ByteSizes.format(budget) + "); raise "
					+ setting + " or lower SizeClass.preRegistered");
		}
		long room = budget - preRegisteredBytes;
		for (SizeClass sizeClass : sizeClasses) {
			// A class with nothing pre-registered must be able to grow by at least one buffer
			// into the budget the pre-registered classes leave, or it could never lease at all.
			if ((sizeClass.role() == BufferRole.RECEIVE) == receive && sizeClass.preRegistered() == 0
					&& sizeClass.bufferSize() > room) {
				throw new IllegalArgumentException("Size class " + sizeClass.name() + " could never lease a buffer: its "
						+ ByteSizes.format(sizeClass.bufferSize()) + " buffers do not fit in the " + ByteSizes.format(room)
						+ " that MemoryPoolConfig." + setting + " (" + ByteSizes.format(budget)
						+ ") leaves after pre-registration; raise " + setting + ", or drop the class");
			}
		}
	}

	/**
	 * The default pool for an inline threshold: {@link BufferRole#RECEIVE} and
	 * {@link BufferRole#SEND} buffers of the threshold size with one slab of each
	 * pre-registered, and {@link BufferRole#READ_CHUNK}, {@link BufferRole#WRITE_CHUNK} and
	 * {@link BufferRole#LOCAL_BULK} classes in powers of two from 4 KiB to 16 MiB that grow
	 * on demand; 1 MiB slabs, a 256 MiB budget for receive buffers and another for the rest, a
	 * 1 second lease timeout, no leak tracking, read chunks scrubbed on release.
	 * @param inlineThreshold the inline threshold in bytes (1024 for RPC-over-RDMA version 1,
	 * 4096 for version 2 by default)
	 * @return the configuration
	 * @throws IllegalArgumentException if the threshold is not positive or exceeds the slab
	 */
	public static MemoryPoolConfig defaults(int inlineThreshold) {
		if (inlineThreshold <= 0 || inlineThreshold > DEFAULT_SLAB_SIZE) {
			throw new IllegalArgumentException("The inline threshold must be between 1 byte and "
					+ ByteSizes.format(DEFAULT_SLAB_SIZE) + ", got " + inlineThreshold
					+ " (RFC 8166 §3.3.2: 1024 bytes unless the peers agree on more)");
		}
		int perSlab = DEFAULT_SLAB_SIZE / inlineThreshold;
		List<SizeClass> classes = new ArrayList<>();
		classes.add(new SizeClass(BufferRole.RECEIVE, inlineThreshold, perSlab, SizeClass.UNLIMITED));
		classes.add(new SizeClass(BufferRole.SEND, inlineThreshold, perSlab, SizeClass.UNLIMITED));
		classes.addAll(SizeClass.powersOfTwo(BufferRole.READ_CHUNK, DEFAULT_SMALLEST_CHUNK, DEFAULT_LARGEST_CHUNK));
		classes.addAll(SizeClass.powersOfTwo(BufferRole.WRITE_CHUNK, DEFAULT_SMALLEST_CHUNK, DEFAULT_LARGEST_CHUNK));
		classes.addAll(SizeClass.powersOfTwo(BufferRole.LOCAL_BULK, DEFAULT_SMALLEST_CHUNK, DEFAULT_LARGEST_CHUNK));
		return new MemoryPoolConfig(classes, DEFAULT_SLAB_SIZE, DEFAULT_MAX_REGISTERED_BYTES, DEFAULT_LEASE_TIMEOUT,
				false, true, DEFAULT_MAX_RECEIVE_BYTES);
	}

	/**
	 * A copy with other size classes.
	 * @param classes the classes
	 * @return the new configuration
	 */
	public MemoryPoolConfig withSizeClasses(List<SizeClass> classes) {
		return new MemoryPoolConfig(classes, this.slabSize, this.maxRegisteredBytes, this.leaseTimeout,
				this.leakTracking, this.scrubReadChunks, this.maxReceiveBytes);
	}

	/**
	 * A copy with another slab size.
	 * @param bytes the slab size in bytes
	 * @return the new configuration
	 */
	public MemoryPoolConfig withSlabSize(int bytes) {
		return new MemoryPoolConfig(this.sizeClasses, bytes, this.maxRegisteredBytes, this.leaseTimeout,
				this.leakTracking, this.scrubReadChunks, this.maxReceiveBytes);
	}

	/**
	 * A copy with another registration budget.
	 * @param bytes the most bytes the pool may register
	 * @return the new configuration
	 */
	public MemoryPoolConfig withMaxRegisteredBytes(long bytes) {
		return new MemoryPoolConfig(this.sizeClasses, this.slabSize, bytes, this.leaseTimeout, this.leakTracking,
				this.scrubReadChunks, this.maxReceiveBytes);
	}

	/**
	 * A copy with another registration budget for receive buffers.
	 * @param bytes the most bytes the pool may register for receive buffers
	 * @return the new configuration
	 */
	public MemoryPoolConfig withMaxReceiveBytes(long bytes) {
		return new MemoryPoolConfig(this.sizeClasses, this.slabSize, this.maxRegisteredBytes, this.leaseTimeout,
				this.leakTracking, this.scrubReadChunks, bytes);
	}

	/**
	 * A copy with another lease timeout.
	 * @param timeout how long a lease waits for a buffer of an exhausted class
	 * @return the new configuration
	 */
	public MemoryPoolConfig withLeaseTimeout(Duration timeout) {
		return new MemoryPoolConfig(this.sizeClasses, this.slabSize, this.maxRegisteredBytes, timeout,
				this.leakTracking, this.scrubReadChunks, this.maxReceiveBytes);
	}

	/**
	 * A copy with leak tracking switched on or off.
	 * @param enabled whether to record lease sites
	 * @return the new configuration
	 */
	public MemoryPoolConfig withLeakTracking(boolean enabled) {
		return new MemoryPoolConfig(this.sizeClasses, this.slabSize, this.maxRegisteredBytes, this.leaseTimeout,
				enabled, this.scrubReadChunks, this.maxReceiveBytes);
	}

	/**
	 * A copy with read chunk scrubbing switched on or off.
	 * @param enabled whether to zero read chunk buffers on release
	 * @return the new configuration
	 */
	public MemoryPoolConfig withScrubReadChunks(boolean enabled) {
		return new MemoryPoolConfig(this.sizeClasses, this.slabSize, this.maxRegisteredBytes, this.leaseTimeout,
				this.leakTracking, enabled, this.maxReceiveBytes);
	}

}
