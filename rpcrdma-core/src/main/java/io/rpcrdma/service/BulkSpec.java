package io.rpcrdma.service;

/**
 * Whether an argument or a result is DDP-eligible bulk data ({@link Bulk}), and how large it
 * may be.
 *
 * @param bulk whether it is marked
 * @param maxBytes the largest size accepted, meaningful only when {@code bulk}
 */
public record BulkSpec(boolean bulk, int maxBytes) {

	/** Not bulk: conveyed inline like any other XDR item. */
	public static final BulkSpec NONE = new BulkSpec(false, 0);

	public BulkSpec {
		if (bulk && maxBytes < 0) {
			throw new IllegalArgumentException("@Bulk maxBytes must not be negative but was " + maxBytes);
		}
	}

	/**
	 * @param maxBytes the largest size
	 * @return a bulk marking
	 */
	public static BulkSpec of(int maxBytes) {
		return new BulkSpec(true, maxBytes);
	}

}
