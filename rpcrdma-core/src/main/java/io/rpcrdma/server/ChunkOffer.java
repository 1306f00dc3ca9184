package io.rpcrdma.server;

import java.util.List;

import io.rpcrdma.protocol.TraceContext;

/**
 * What the requester of one call offered for its reply, as its transport header said:
 * Write chunks for DDP-eligible results (RFC 8166 §3.4.6), a Reply chunk for a long reply
 * (RFC 8166 §3.5.4), and the RPC-over-RDMA version the reply goes back in.
 *
 * @param rdmaVersion the RPC-over-RDMA version the call arrived in (1 or 2), 0 when the call
 * did not come over RPC-over-RDMA
 * @param writeChunkCapacities the capacity in bytes of each Write chunk offered, in order;
 * DDP-eligible result item {@code i} goes into chunk {@code i} if it fits
 * @param replyChunkCapacity the capacity of the Reply chunk, 0 if none was offered
 * @param readChunks how many Read chunks carried the call itself (RFC 8166 §3.4.5, a
 * Position-Zero chunk included), for metrics
 * @param traceContext the requester's W3C trace context, carried with the call by the
 * {@link io.rpcrdma.protocol.TraceContextOption} optional feature, or {@code null}
 */
public record ChunkOffer(int rdmaVersion, List<Long> writeChunkCapacities, long replyChunkCapacity, int readChunks,
		TraceContext traceContext) {

	/** Nothing offered: every result travels inline. */
	public static final ChunkOffer NONE = new ChunkOffer(0, List.of(), 0, 0);

	private static final ChunkOffer[] NOTHING_IN = { NONE, new ChunkOffer(1, List.of(), 0, 0),
			new ChunkOffer(2, List.of(), 0, 0) };

	/**
	 * The offer of a call that came inline and offered no chunk for its reply, the common
	 * small call: shared, so such a call allocates no offer.
	 * @param rdmaVersion the RPC-over-RDMA version the call arrived in
	 * @return {@code new ChunkOffer(rdmaVersion, List.of(), 0, 0)}, or an equal instance
	 */
	public static ChunkOffer nothing(int rdmaVersion) {
		return (rdmaVersion >= 0 && rdmaVersion < NOTHING_IN.length) ? NOTHING_IN[rdmaVersion]
				: new ChunkOffer(rdmaVersion, List.of(), 0, 0);
	}

	/**
	 * An offer without a trace context.
	 * @param rdmaVersion the RPC-over-RDMA version the call arrived in
	 * @param writeChunkCapacities the capacity of each Write chunk offered
	 * @param replyChunkCapacity the capacity of the Reply chunk, 0 if none
	 * @param readChunks how many Read chunks carried the call
	 */
	public ChunkOffer(int rdmaVersion, List<Long> writeChunkCapacities, long replyChunkCapacity, int readChunks) {
		this(rdmaVersion, writeChunkCapacities, replyChunkCapacity, readChunks, null);
	}

	/**
	 * An offer for a call that came without Read chunks.
	 * @param rdmaVersion the RPC-over-RDMA version the call arrived in
	 * @param writeChunkCapacities the capacity of each Write chunk offered
	 * @param replyChunkCapacity the capacity of the Reply chunk, 0 if none
	 */
	public ChunkOffer(int rdmaVersion, List<Long> writeChunkCapacities, long replyChunkCapacity) {
		this(rdmaVersion, writeChunkCapacities, replyChunkCapacity, 0);
	}

	/** Validates and copies. */
	public ChunkOffer {
		writeChunkCapacities = List.copyOf(writeChunkCapacities);
		for (Long capacity : writeChunkCapacities) {
			if (capacity < 0) {
				throw new IllegalArgumentException("Write chunk capacities must not be negative, got "
						+ writeChunkCapacities);
			}
		}
		if (replyChunkCapacity < 0) {
			throw new IllegalArgumentException("replyChunkCapacity must not be negative, got " + replyChunkCapacity);
		}
	}

}
