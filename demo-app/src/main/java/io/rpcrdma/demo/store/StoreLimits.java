package io.rpcrdma.demo.store;

/**
 * What an {@link ObjectStoreService} accepts.
 *
 * @param maxObjectBytes the largest object, at most {@link ObjectStore#MAX_OBJECT_BYTES}
 * @param capacityBytes the most bytes held in all
 */
public record StoreLimits(int maxObjectBytes, long capacityBytes) {

	/** Checks the limits. */
	public StoreLimits {
		if (maxObjectBytes < 0 || maxObjectBytes > ObjectStore.MAX_OBJECT_BYTES) {
			throw new IllegalArgumentException("demo.store.max-object-size must be between 0 B and "
					+ (ObjectStore.MAX_OBJECT_BYTES >> 20) + "MB (the XDR bound of object contents), got " + maxObjectBytes + " B");
		}
		if (capacityBytes < maxObjectBytes) {
			throw new IllegalArgumentException("demo.store.capacity (" + capacityBytes
					+ " B) must be at least demo.store.max-object-size (" + maxObjectBytes + " B)");
		}
	}

}
