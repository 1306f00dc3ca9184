package io.rpcrdma.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;

/**
 * One size class of a {@link RegisteredMemoryPool}: buffers of one {@link BufferRole} and
 * one size, some registered when the pool starts and more on demand up to a limit.
 * <p>
 * Buffers beyond {@link #preRegistered()} are registered the first time they are needed
 * (never again afterwards; they are reused until the pool closes), so a class that must
 * never register on the data path should pre-register its expected peak.
 *
 * @param role what the buffers are used for; fixes their access rights
 * @param bufferSize the size of every buffer of the class, in bytes
 * @param preRegistered how many buffers to register when the pool starts
 * @param maxBuffers the most buffers the class may ever register, or {@link #UNLIMITED}
 * to be bounded only by the pool's {@link MemoryPoolConfig#maxRegisteredBytes()}
 */
public record SizeClass(BufferRole role, int bufferSize, int preRegistered, int maxBuffers) {

	/** The {@link #maxBuffers()} value meaning "bounded only by the pool's byte budget". */
	public static final int UNLIMITED = Integer.MAX_VALUE;

	/** The largest buffer a class may hold: 1 GiB. */
	public static final int MAX_BUFFER_SIZE = 1 << 30;

	/**
	 * Validates the class.
	 * @throws IllegalArgumentException if a value is out of range, saying which and why
	 * @throws NullPointerException if {@code role} is {@code null}
	 */
	public SizeClass {
		Objects.requireNonNull(role, "A size class needs a BufferRole (RECEIVE, SEND, READ_CHUNK, WRITE_CHUNK or LOCAL_BULK), got null");
		if (bufferSize <= 0 || bufferSize > MAX_BUFFER_SIZE) {
			throw new IllegalArgumentException("Size class " + role.label() + ": bufferSize must be between 1 byte and "
					+ ByteSizes.format(MAX_BUFFER_SIZE) + ", got " + bufferSize
					+ "; larger transfers use several buffers as the segments of one chunk (RFC 8166 §3.4.4)");
		}
		if (preRegistered < 0) {
			throw new IllegalArgumentException("Size class " + role.label() + "-" + ByteSizes.compact(bufferSize)
					+ ": preRegistered must be zero or more, got " + preRegistered);
		}
		if (maxBuffers < 1) {
			throw new IllegalArgumentException("Size class " + role.label() + "-" + ByteSizes.compact(bufferSize)
					+ ": maxBuffers must be at least 1 (or SizeClass.UNLIMITED), got " + maxBuffers);
		}
		if (preRegistered > maxBuffers) {
			throw new IllegalArgumentException("Size class " + role.label() + "-" + ByteSizes.compact(bufferSize)
					+ ": preRegistered (" + preRegistered + ") exceeds maxBuffers (" + maxBuffers
					+ "); lower preRegistered or raise maxBuffers");
		}
	}

	/**
	 * A class that registers nothing up front and grows within the pool's byte budget.
	 * @param role what the buffers are used for
	 * @param bufferSize the buffer size in bytes
	 * @return the size class
	 */
	public static SizeClass of(BufferRole role, int bufferSize) {
		return new SizeClass(role, bufferSize, 0, UNLIMITED);
	}

	/**
	 * Power-of-two classes from {@code smallest} to {@code largest} inclusive, for chunk
	 * buffers: for example 4 KiB, 8 KiB, ... 16 MiB. None is pre-registered and each is
	 * bounded only by the pool's byte budget; adjust them with
	 * {@link #withPreRegistered(int)} and {@link #withMaxBuffers(int)}.
	 * @param role what the buffers are used for
	 * @param smallest the smallest buffer size, a power of two
	 * @param largest the largest buffer size, a power of two no smaller than {@code smallest}
	 * @return the classes in ascending size order
	 * @throws IllegalArgumentException if the bounds are not powers of two or are out of order
	 */
	public static List<SizeClass> powersOfTwo(BufferRole role, int smallest, int largest) {
		if (smallest <= 0 || Integer.bitCount(smallest) != 1 || largest <= 0 || Integer.bitCount(largest) != 1) {
			throw new IllegalArgumentException("Power-of-two size classes need power-of-two bounds, got smallest="
					+ smallest + " and largest=" + largest + "; for example 4096 and 16777216 (4 KiB to 16 MiB)");
		}
		if (smallest > largest) {
			throw new IllegalArgumentException("The smallest chunk size (" + ByteSizes.format(smallest)
					+ ") is larger than the largest (" + ByteSizes.format(largest) + "); swap them");
		}
		List<SizeClass> classes = new ArrayList<>();
		for (long size = smallest; size <= largest; size <<= 1) {
			classes.add(of(role, (int) size));
		}
		return List.copyOf(classes);
	}

	/**
	 * A copy that registers {@code count} buffers when the pool starts.
	 * @param count the number of buffers to pre-register
	 * @return the adjusted class
	 */
	public SizeClass withPreRegistered(int count) {
		return new SizeClass(this.role, this.bufferSize, count, this.maxBuffers);
	}

	/**
	 * A copy that registers at most {@code count} buffers.
	 * @param count the limit, or {@link #UNLIMITED}
	 * @return the adjusted class
	 */
	public SizeClass withMaxBuffers(int count) {
		return new SizeClass(this.role, this.bufferSize, this.preRegistered, count);
	}

	/**
	 * The access rights of the class's buffers, given by its role.
	 * @return the access flags
	 */
	public Set<AccessFlag> access() {
		return this.role.access();
	}

	/**
	 * The class name used in statistics and messages, for example {@code write-chunk-64KiB}.
	 * @return the name
	 */
	public String name() {
		return this.role.label() + "-" + ByteSizes.compact(this.bufferSize);
	}

	/**
	 * Bytes registered when the pool starts.
	 * @return {@code preRegistered * bufferSize}
	 */
	public long preRegisteredBytes() {
		return (long) this.preRegistered * this.bufferSize;
	}

	@Override
	public String toString() {
		return "SizeClass[" + name() + ", preRegistered=" + this.preRegistered + ", maxBuffers="
				+ (this.maxBuffers == UNLIMITED ? "unlimited" : this.maxBuffers) + "]";
	}

}
