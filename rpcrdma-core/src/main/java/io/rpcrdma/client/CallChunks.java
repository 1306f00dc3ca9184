package io.rpcrdma.client;

import java.util.List;
import java.util.Objects;

import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.transport.RegisteredItem;

/**
 * The chunks a call with bulk data travels in (RFC 8166 §3.4): which argument items are
 * DDP-eligible (moved into Read chunks), which Write chunks to offer for DDP-eligible results,
 * how large the encoded call may be and how large the reply may grow (a larger-than-inline
 * reply gets a Reply chunk).
 *
 * @param maxCallSize the most bytes the call (header and arguments) may take
 * @param argumentItems DDP-eligible argument items, offsets relative to the first byte of the
 * arguments (the call header is added by {@link RpcClient}), increasing and non-overlapping
 * @param writeChunkSizes capacities of the Write chunks to offer, in result order
 * @param maxReplySize the largest reply expected, without Write chunk data
 * @param registeredArguments DDP-eligible argument items whose data the caller already holds
 * in registered buffers (zero copy, see {@link RegisteredItem}): the arguments encode only
 * each item's XDR length word, and the offsets (relative to the first byte of the arguments,
 * just after that length word) count no item's data; increasing
 */
public record CallChunks(int maxCallSize, List<DdpRange> argumentItems, List<Integer> writeChunkSizes,
		int maxReplySize, List<RegisteredItem> registeredArguments) {

	/** Validates and copies. */
	public CallChunks {
		if (maxCallSize < 8) {
			throw new IllegalArgumentException("maxCallSize must be at least 8, got " + maxCallSize);
		}
		argumentItems = List.copyOf(Objects.requireNonNull(argumentItems, "argumentItems"));
		writeChunkSizes = List.copyOf(Objects.requireNonNull(writeChunkSizes, "writeChunkSizes"));
		if (maxReplySize < 0) {
			throw new IllegalArgumentException("maxReplySize must not be negative, got " + maxReplySize);
		}
		registeredArguments = List.copyOf(Objects.requireNonNull(registeredArguments, "registeredArguments"));
	}

	/**
	 * Chunks of a call whose DDP-eligible argument items are all encoded in the arguments.
	 * @param maxCallSize the most bytes the call may take
	 * @param argumentItems DDP-eligible argument items, offsets relative to the arguments
	 * @param writeChunkSizes capacities of the Write chunks to offer
	 * @param maxReplySize the largest reply expected
	 */
	public CallChunks(int maxCallSize, List<DdpRange> argumentItems, List<Integer> writeChunkSizes, int maxReplySize) {
		this(maxCallSize, argumentItems, writeChunkSizes, maxReplySize, List.of());
	}

	/**
	 * Adds an argument whose data the caller holds in a registered buffer leased from the pool
	 * with {@code BufferRole.READ_CHUNK}: the responder reads it by RDMA straight from that
	 * memory (RFC 8166 §3.4.5). The arguments encode only the item's length word
	 * ({@code encoder.writeInt(length)}), and {@code offset} is the arguments' position just
	 * after it. The buffer must stay leased and unchanged until the call's future completes;
	 * the caller releases it afterwards.
	 * @param offset where the data belongs, relative to the first byte of the arguments
	 * @param buffer the caller's registered buffer; the data starts at its first byte
	 * @param length the data's length
	 * @return a copy with the argument added
	 */
	public CallChunks withRegisteredArgument(int offset, RegisteredBuffer buffer, int length) {
		List<RegisteredItem> items = new java.util.ArrayList<>(this.registeredArguments);
		items.add(new RegisteredItem(offset, buffer, length));
		return new CallChunks(this.maxCallSize, this.argumentItems, this.writeChunkSizes, this.maxReplySize, items);
	}

	/**
	 * A call without Read or Write chunks.
	 * @param maxCallSize the largest encoded call
	 * @param maxReplySize the largest reply; beyond the inline threshold a Reply chunk is offered
	 * @return the chunks
	 */
	public static CallChunks of(int maxCallSize, int maxReplySize) {
		return new CallChunks(maxCallSize, List.of(), List.of(), maxReplySize);
	}

}
