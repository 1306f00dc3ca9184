package io.rpcrdma.client;

import java.util.List;
import java.util.Objects;

import io.rpcrdma.transport.DdpRange;

/**
 * How a call with bulk data travels: which argument items are DDP-eligible (moved into Read
 * chunks), which Write chunks to offer for DDP-eligible results, how large the encoded call
 * may be and how large the reply may grow (a larger-than-inline reply gets a Reply chunk).
 *
 * @param maxCallSize the most bytes the call (header and arguments) may take
 * @param argumentItems DDP-eligible argument items, offsets relative to the first byte of the
 * arguments (the call header is added by {@link RpcClient}), increasing and non-overlapping
 * @param writeChunkSizes capacities of the Write chunks to offer, in result order
 * @param maxReplySize the largest reply expected, without Write chunk data
 */
public record CallShape(int maxCallSize, List<DdpRange> argumentItems, List<Integer> writeChunkSizes,
		int maxReplySize) {

	/** Validates and copies. */
	public CallShape {
		if (maxCallSize < 8) {
			throw new IllegalArgumentException("maxCallSize must be at least 8, got " + maxCallSize);
		}
		argumentItems = List.copyOf(Objects.requireNonNull(argumentItems, "argumentItems"));
		writeChunkSizes = List.copyOf(Objects.requireNonNull(writeChunkSizes, "writeChunkSizes"));
		if (maxReplySize < 0) {
			throw new IllegalArgumentException("maxReplySize must not be negative, got " + maxReplySize);
		}
	}

	/**
	 * A call without Read or Write chunks.
	 * @param maxCallSize the largest encoded call
	 * @param maxReplySize the largest reply; beyond the inline threshold a Reply chunk is offered
	 * @return the shape
	 */
	public static CallShape of(int maxCallSize, int maxReplySize) {
		return new CallShape(maxCallSize, List.of(), List.of(), maxReplySize);
	}

}
