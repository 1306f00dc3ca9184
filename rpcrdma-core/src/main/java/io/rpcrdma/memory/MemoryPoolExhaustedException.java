package io.rpcrdma.memory;

/**
 * A {@link RegisteredMemoryPool} could not lease a buffer in time: every buffer of the
 * size class was leased and the class could not grow, because it reached its
 * {@link SizeClass#maxBuffers()} or the pool reached
 * {@link MemoryPoolConfig#maxRegisteredBytes()}. The message names the class, the sizes,
 * the limit that was hit and the setting to raise.
 * <p>
 * This is back-pressure, not necessarily a bug: the caller may fail the RPC, retry later,
 * or send fewer RPCs at once. If it persists, look for buffers that are never released
 * ({@link RegisteredMemoryPool#leaks()}).
 */
public class MemoryPoolExhaustedException extends RuntimeException {

	private final SizeClass sizeClass;

	private final int requestedLength;

	/**
	 * Creates the exception.
	 * @param message what was exhausted and what to do
	 * @param sizeClass the exhausted class
	 * @param requestedLength the number of bytes asked for
	 * @param cause the underlying failure, or {@code null}
	 */
	public MemoryPoolExhaustedException(String message, SizeClass sizeClass, int requestedLength, Throwable cause) {
		super(message, cause);
		this.sizeClass = sizeClass;
		this.requestedLength = requestedLength;
	}

	/**
	 * The class no buffer could be leased from.
	 * @return the size class
	 */
	public SizeClass sizeClass() {
		return this.sizeClass;
	}

	/**
	 * The number of bytes the lease asked for.
	 * @return the requested length
	 */
	public int requestedLength() {
		return this.requestedLength;
	}

}
