package io.rpcrdma.service.codec;

/**
 * Bounds on what a decoder accepts from a peer, checked before anything is allocated, so a
 * hostile or broken sender cannot exhaust memory or the stack.
 *
 * @param maxCollectionSize the most elements of any array, list, set or map
 * @param maxStringBytes the longest string in UTF-8 bytes
 * @param maxOpaqueBytes the longest opaque data (byte[] / ByteBuffer) not marked
 * {@link io.rpcrdma.service.Bulk} with its own bound
 * @param maxDepth how deeply recursive types (a linked list, a tree) may nest
 */
public record CodecLimits(int maxCollectionSize, int maxStringBytes, int maxOpaqueBytes, int maxDepth) {

	/**
	 * 65,536 elements, 1 MiB strings, 16 MiB opaque data, depth 256 (enough for lists a
	 * protocol would sensibly send recursively, far from a thread's stack limit).
	 */
	public static final CodecLimits DEFAULTS = new CodecLimits(65_536, 1 << 20, 16 << 20, 256);

	public CodecLimits {
		requireNonNegative("maxCollectionSize", maxCollectionSize);
		requireNonNegative("maxStringBytes", maxStringBytes);
		requireNonNegative("maxOpaqueBytes", maxOpaqueBytes);
		if (maxDepth < 1) {
			throw new IllegalArgumentException("maxDepth must be at least 1 but was " + maxDepth);
		}
	}

	/** @return a copy with another collection bound */
	public CodecLimits withMaxCollectionSize(int value) {
		return new CodecLimits(value, this.maxStringBytes, this.maxOpaqueBytes, this.maxDepth);
	}

	/** @return a copy with another string bound */
	public CodecLimits withMaxStringBytes(int value) {
		return new CodecLimits(this.maxCollectionSize, value, this.maxOpaqueBytes, this.maxDepth);
	}

	/** @return a copy with another opaque bound */
	public CodecLimits withMaxOpaqueBytes(int value) {
		return new CodecLimits(this.maxCollectionSize, this.maxStringBytes, value, this.maxDepth);
	}

	/** @return a copy with another depth bound */
	public CodecLimits withMaxDepth(int value) {
		return new CodecLimits(this.maxCollectionSize, this.maxStringBytes, this.maxOpaqueBytes, value);
	}

	private static void requireNonNegative(String name, int value) {
		if (value < 0) {
			throw new IllegalArgumentException(name + " must not be negative but was " + value);
		}
	}

}
