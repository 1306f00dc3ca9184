package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;

/**
 * Moves chunk data between the peers of one connection, as Linux's {@code svc_rdma_rw.c}
 * does: pulls the peer's Read chunks with RDMA Read (RFC 8166 §3.4.5), within this side's
 * ORD and the peer's IRD ({@link ReadThrottle}), and pushes data into the peer's Write and
 * Reply chunks with RDMA Write (§3.4.6). Never registers memory: the buffers come from the
 * connection's pool, already registered.
 */
final class ChunkTransfers {

	private final RegisteredMemoryPool pool;

	private final TransportConfig config;

	private final TransportCounters counters;

	/** Keeps this side's RDMA Reads within its ORD and the peer's IRD. */
	private final ReadThrottle readThrottle;

	/** The peer said in band that it allows no RDMA Read (CCP maxrdmaread 0). */
	private volatile boolean readsForbidden;

	/** Where the RDMA Reads and Writes are posted and their completions told. */
	private final WorkRequests workRequests;

	ChunkTransfers(RegisteredMemoryPool pool, TransportConfig config, TransportCounters counters,
			ReadThrottle readThrottle, WorkRequests workRequests) {
		this.workRequests = workRequests;
		this.pool = pool;
		this.config = config;
		this.counters = counters;
		this.readThrottle = readThrottle;
	}

	/**
	 * Takes the peer's {@code maxrdmaread} learnt with CCP (RFC 5666 §6.2): this side's Reads
	 * stay within the smaller of its ORD and the peer's IRD. Zero means the peer allows no
	 * RDMA Read at all; chunks that would need one are then refused.
	 * @param peerReadDepth the peer's value
	 */
	void applyPeerReadDepth(long peerReadDepth) {
		// Reads already admitted or waiting finish under a limit of at least one; only new
		// chunks are refused when the peer now allows none.
		this.readsForbidden = peerReadDepth == 0;
		this.readThrottle.limit((int) Math.max(1, Math.min(this.config.maxOutstandingReads(), peerReadDepth)));
	}

	/**
	 * Pulls Read chunks with RDMA Read (RFC 5666 §3.4) into local bulk buffers, copies the
	 * data out and releases the buffers.
	 * @param chunks the chunks
	 * @param done given each chunk's data in order, or the failure
	 */
	void fetch(List<ReadChunk> chunks, Consumer<ByteBuffer[]> done, Consumer<TransportException> failed) {
		ByteBuffer[] data = new ByteBuffer[chunks.size()];
		List<RegisteredBuffer> buffers = new ArrayList<>(chunks.size());
		AtomicInteger pending = new AtomicInteger(1);
		AtomicBoolean broken = new AtomicBoolean();
		Runnable finish = () -> {
			if (pending.decrementAndGet() != 0) {
				return;
			}
			if (!broken.get()) {
				for (int i = 0; i < chunks.size(); i++) {
					RegisteredBuffer buffer = buffers.get(i);
					int length = (int) chunks.get(i).totalLength();
					byte[] bytes = new byte[length];
					if (length > 0) {
						buffer.buffer().get(0, bytes, 0, length);
					}
					data[i] = ByteBuffer.wrap(bytes);
				}
			}
			for (RegisteredBuffer buffer : buffers) {
				buffer.release();
			}
			if (broken.get()) {
				failed.accept(new TransportClosedException("An RDMA Read of a chunk failed"));
			}
			else {
				done.accept(data);
			}
		};
		try {
			if (this.readsForbidden) {
				throw new ChunkValidationException("The peer allows no RDMA Read (CCP maxrdmaread 0, RFC 5666 §6.2), "
						+ "so its Read chunks cannot be pulled");
			}
			for (ReadChunk chunk : chunks) {
				long total = chunk.totalLength();
				if (total > this.pool.largestBufferSize(BufferRole.LOCAL_BULK)) {
					throw new ChunkValidationException("Read chunk at position " + Integer.toUnsignedString(chunk.position())
							+ " of " + total + " bytes exceeds the largest local buffer");
				}
				buffers.add(PoolLeases.lease(this.pool, BufferRole.LOCAL_BULK, (int) total));
			}
			this.counters.readChunksPulled.add(chunks.size());
			for (int i = 0; i < chunks.size(); i++) {
				RegisteredBuffer buffer = buffers.get(i);
				readChunk(chunks.get(i), buffer, buffer.offset(), pending, broken, finish);
			}
		}
		catch (TransportException ex) {
			broken.set(true);
			if (pending.get() == 1) {
				pending.set(0);
				for (RegisteredBuffer buffer : buffers) {
					buffer.release();
				}
				failed.accept(ex);
				return;
			}
			finish.run();
			return;
		}
		finish.run();
	}

	/**
	 * Submits the RDMA Reads of one chunk's segments to the {@link ReadThrottle} (the ORD
	 * bounds every RDMA Read), landing them one after the other in {@code target}.
	 * @param chunk the peer's chunk
	 * @param target the local buffer
	 * @param offset where in {@code target}'s region the chunk's first byte lands
	 * @param pending counts one more for each Read submitted
	 * @param broken set if a Read fails or is refused
	 * @param finish run once per Read when it is done
	 */
	private void readChunk(ReadChunk chunk, RegisteredBuffer target, int offset, AtomicInteger pending,
			AtomicBoolean broken, Runnable finish) {
		int at = offset;
		for (RdmaSegment segment : chunk.segments()) {
			int length = segment.length();
			if (length != 0) {
				pending.incrementAndGet();
				RemoteAddress source = new RemoteAddress(segment.offset(), segment.handle());
				ScatterGatherEntry sink = ScatterGatherEntry.of(target.region(), at, length);
				this.readThrottle.submit(new ReadThrottle.Read(() -> startRead(source, sink, broken, finish), () -> {
					broken.set(true);
					finish.run();
				}));
			}
			at += length;
		}
	}

	/** Posts one RDMA Read admitted by the {@link ReadThrottle}; its completion frees the slot. */
	private void startRead(RemoteAddress source, ScatterGatherEntry sink, AtomicBoolean broken, Runnable finish) {
		try {
			long wrId = this.workRequests.register((wc) -> {
				this.readThrottle.release();
				if (!wc.isSuccess()) {
					broken.set(true);
				}
				finish.run();
			});
			this.workRequests.post(SendWorkRequest.rdmaRead(wrId, source, sink));
			this.counters.bytesRead.add(sink.length());
		}
		catch (TransportException ex) {
			// register() or post() already completed the operation as failed: the slot is free,
			// the fetch broken.
		}
	}

	/**
	 * Pulls Read chunks with RDMA Read (RFC 5666 §3.4) straight into one local buffer, each
	 * chunk at its own offset, with no copy afterwards (see {@link DirectPlacement}).
	 * @param chunks the chunks
	 * @param placement where each chunk's data goes in {@code target}
	 * @param target the local buffer, owned by the caller, who releases it only after
	 * {@code done} or {@code failed} ran (a Read may still be landing until then)
	 * @param done run once every Read completed
	 * @param failed given the failure once no Read is outstanding
	 */
	void readInto(List<ReadChunk> chunks, DirectPlacement placement, RegisteredBuffer target, Runnable done,
			Consumer<TransportException> failed) {
		AtomicInteger pending = new AtomicInteger(1);
		AtomicBoolean broken = new AtomicBoolean();
		AtomicReference<TransportException> notPosted = new AtomicReference<>();
		Runnable finish = () -> {
			if (pending.decrementAndGet() != 0) {
				return;
			}
			if (broken.get()) {
				TransportException cause = notPosted.get();
				failed.accept((cause != null) ? cause : new TransportClosedException("An RDMA Read of a chunk failed"));
			}
			else {
				done.run();
			}
		};
		try {
			if (this.readsForbidden) {
				throw new ChunkValidationException("The peer allows no RDMA Read (CCP maxrdmaread 0, RFC 5666 §6.2), "
						+ "so its Read chunks cannot be pulled");
			}
			this.counters.readChunksPulled.add(chunks.size());
			for (int i = 0; i < chunks.size(); i++) {
				readChunk(chunks.get(i), target, target.offset() + placement.chunkOffset(i), pending, broken, finish);
			}
		}
		catch (TransportException ex) {
			notPosted.set(ex);
			broken.set(true);
		}
		finish.run();
	}

	/**
	 * Writes bytes into a peer's chunk, spreading them over its segments in order (RFC 8166
	 * §3.4.6).
	 * @param data the bytes
	 * @param segments the peer's segments
	 * @param bulk a local buffer holding the data at offset 0
	 * @return the segments with their lengths set to what was written
	 */
	List<RdmaSegment> writeInto(ByteBuffer data, List<RdmaSegment> segments, RegisteredBuffer bulk) {
		int length = data.remaining();
		bulk.buffer().put(0, data, data.position(), length);
		return writeFrom(bulk, length, segments);
	}

	/**
	 * Writes the first bytes of a local registered buffer into a peer's chunk, spreading them
	 * over its segments in order (RFC 8166 §3.4.6), straight from that buffer.
	 * @param bulk a local buffer of this endpoint's protection domain holding the data at offset 0
	 * @param length how many bytes
	 * @param segments the peer's segments
	 * @return the segments with their lengths set to what was written
	 */
	List<RdmaSegment> writeFrom(RegisteredBuffer bulk, int length, List<RdmaSegment> segments) {
		List<RdmaSegment> actual = new ArrayList<>(segments.size());
		int written = 0;
		if (length > 0) {
			this.counters.writeChunksFilled.increment();
		}
		for (RdmaSegment segment : segments) {
			int take = (int) Math.min(segment.unsignedLength(), length - written);
			if (take > 0) {
				long wrId = this.workRequests.register((wc) -> {
				});
				this.workRequests.post(SendWorkRequest.rdmaWrite(wrId, new RemoteAddress(segment.offset(), segment.handle()),
						ScatterGatherEntry.of(bulk.region(), bulk.offset() + written, take)));
				this.counters.bytesWritten.add(take);
			}
			actual.add(new RdmaSegment(segment.handle(), take, segment.offset()));
			written += take;
		}
		return actual;
	}

	/**
	 * Whether a registered buffer someone else leased can be the source of this endpoint's
	 * RDMA Writes: still leased, and registered in this endpoint's protection domain (a
	 * buffer of another pool would fail the local access check and take the connection down).
	 * @param buffer the buffer
	 * @return whether work requests may name it
	 */
	boolean usableHere(RegisteredBuffer buffer) {
		return buffer.isLeased() && buffer.region().protectionDomain() == this.pool.protectionDomain()
				&& buffer.region().isValid();
	}

}
