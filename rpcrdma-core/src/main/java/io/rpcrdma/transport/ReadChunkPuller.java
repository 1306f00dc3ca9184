package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.protocol.ChunkedHeader;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.RpcRdmaConstants;

/**
 * Pulls the Read chunks of the responder's calls, as Linux's {@code svc_rdma_rw.c} read side
 * does for {@code svc_rdma_recvfrom.c}: within the bulk memory the connection may hold and
 * then what all the server's connections hold together (RFC 8166 §8, {@link PeerLimits}),
 * either straight into one registered buffer at each chunk's XDR position
 * ({@link DirectPlacement}) or into a buffer per chunk copied out and reassembled
 * ({@link ChunkAssembler}); a Position Zero Read chunk carries the whole call (RFC 8166
 * §3.5.3). A call whose chunks cannot be pulled is answered with RDMA_ERROR.
 */
final class ReadChunkPuller {

	private final RpcRdmaServerConnection connection;

	private final TransportConfig config;

	/** What all the server's connections' Read chunks hold together, shared with them. */
	private final FifoAdmission placements;

	ReadChunkPuller(RpcRdmaServerConnection connection, TransportConfig config, FifoAdmission placements) {
		this.connection = connection;
		this.config = config;
		this.placements = placements;
	}

	/** @return whether calls wait for bulk memory other connections hold */
	boolean underPressure() {
		return this.placements.waiting() > 0;
	}

	/**
	 * Admits a call's Read chunks within the connection's share of bulk memory, then within
	 * the server's, and pulls them; the call is dispatched once its message is whole.
	 * @param header the call's transport header
	 * @param context the call
	 * @param chunks its Read chunks, at least one
	 * @param payload what came inline
	 */
	void admit(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload) {
		DirectPlacement placement = directPlacement(chunks, payload);
		// What the call's buffers take from the pool (whole size classes), not what it asked for.
		long bytes = (placement != null) ? this.connection.pool.leasedLength(BufferRole.LOCAL_BULK, placement.length())
				: leasedLength(chunks);
		// RFC 8166 §8: what a peer's Read chunks make this side hold is bounded per connection;
		// beyond its share a call waits for the connection's own earlier calls (PeerLimits).
		// Within the connection's share first, then within what all connections hold together.
		Runnable placeWithinTheServersBudget = () -> {
			boolean waitedForOthers = this.placements.admit(new FifoAdmission.Waiter(bytes,
					() -> pullIfOpen(header, context, chunks, payload, placement, bytes), () -> {
						this.connection.bulkShare.release(bytes);
						this.connection.requestFinished();
					}));
			if (waitedForOthers) {
				this.connection.counters.bulkShareWaits.increment();
			}
		};
		boolean waited = this.connection.bulkShare.admit(new FifoAdmission.Waiter(bytes, placeWithinTheServersBudget,
				() -> this.connection.requestFinished()));
		if (waited) {
			this.connection.counters.bulkShareWaits.increment();
		}
	}

	/**
	 * A call admitted by the server-wide budget after its connection failed gives its memory
	 * back at once: the budget is shared, and the connection's waiters are not removed when
	 * it fails.
	 */
	private void pullIfOpen(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			DirectPlacement placement, long bytes) {
		if (!this.connection.isUsable()) {
			release(bytes);
			this.connection.requestFinished();
			return;
		}
		pull(header, context, chunks, payload, placement, bytes);
	}

	/** An admitted call's Read chunks gave their memory back: to the server, then to the connection. */
	void release(long bytes) {
		this.placements.release(bytes);
		this.connection.bulkShare.release(bytes);
	}

	/**
	 * What the copying path's buffers take from the pool: one local bulk buffer per chunk
	 * ({@link ChunkTransfers#fetch}).
	 */
	private long leasedLength(List<ReadChunk> chunks) {
		long total = 0;
		for (ReadChunk chunk : chunks) {
			total += this.connection.pool.leasedLength(BufferRole.LOCAL_BULK, chunk.totalLength());
		}
		return total;
	}

	/** Pulls an admitted call's Read chunks; its share of bulk memory is given back once they are released. */
	private void pull(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			DirectPlacement placement, long bytes) {
		try {
			if (placement != null) {
				placeDirectly(header, context, chunks, payload, placement, bytes);
			}
			else {
				fetchCall(header, context, chunks, payload, bytes);
			}
		}
		catch (TransportException ex) {
			release(bytes);
			this.connection.answerWithError(header.version(), header.xid());
		}
	}

	private void fetchCall(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			long bytes) {
		this.connection.transfers().fetch(chunks, (data) -> {
			// The chunks were copied out and their buffers released.
			release(bytes);
			try {
				ByteBuffer inline = payload;
				List<ReadChunk> rest = chunks;
				ByteBuffer[] restData = data;
				if (chunks.get(0).isPositionZero()) {
					inline = data[0];
					rest = chunks.subList(1, chunks.size());
					restData = Arrays.copyOfRange(data, 1, data.length);
				}
				ByteBuffer whole = ChunkAssembler.reassemble(inline, rest, restData, this.config.checkChunkLengthWords());
				if (whole.remaining() < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH || whole.getInt(0) != header.xid()) {
					throw new ChunkValidationException("The reassembled call does not begin with XID 0x"
							+ Integer.toHexString(header.xid()));
				}
				this.connection.dispatch(context, whole);
			}
			catch (TransportException ex) {
				this.connection.answerWithError(header.version(), header.xid());
			}
		}, (error) -> {
			release(bytes);
			if (error instanceof TransportClosedException) {
				// The RDMA Read failed: the provider already terminated the connection.
				this.connection.requestFinished();
			}
			else {
				// A chunk larger than any local buffer, or the pool is exhausted: refuse the call.
				this.connection.answerWithError(header.version(), header.xid());
			}
		});
	}

	/**
	 * Plans the whole call in one registered buffer when it fits the largest local bulk
	 * buffer: Read chunks at non-zero positions around the Payload stream, or a lone
	 * Position-Zero Read chunk. A Position-Zero chunk with further chunks, or a larger message,
	 * takes the copying path ({@link ChunkTransfers#fetch}).
	 */
	private DirectPlacement directPlacement(List<ReadChunk> chunks, ByteBuffer payload) {
		int largest = this.connection.pool.largestBufferSize(BufferRole.LOCAL_BULK);
		if (chunks.get(0).isPositionZero()) {
			return (chunks.size() == 1) ? DirectPlacement.positionZero(chunks.get(0), largest) : null;
		}
		return DirectPlacement.plan(payload, chunks, this.config.checkChunkLengthWords(), largest);
	}

	/**
	 * Rebuilds the call in one buffer leased from the pool: the inline fragments copied to
	 * their places, each Read chunk RDMA-Read straight to its XDR position (RFC 8166 §3.4.4).
	 * The handler reads bulk arguments as views of this registered memory; the buffer goes back
	 * to the pool when the call is answered or dropped ({@link CallContext#releaseMessage()}).
	 */
	private void placeDirectly(ChunkedHeader header, CallContext context, List<ReadChunk> chunks, ByteBuffer payload,
			DirectPlacement placement, long bytes) {
		RegisteredBuffer target = this.connection.lease(BufferRole.LOCAL_BULK, placement.length());
		ByteBuffer message = target.buffer().slice(0, placement.length());
		if (!chunks.get(0).isPositionZero()) {
			placement.copyInline(payload, chunks, message);
		}
		this.connection.transfers().readInto(chunks, placement, target, () -> {
			if (message.remaining() < RpcRdmaConstants.MIN_RPC_MESSAGE_LENGTH || message.getInt(0) != header.xid()) {
				target.release();
				release(bytes);
				this.connection.answerWithError(header.version(), header.xid());
				return;
			}
			context.placed = target;
			context.placedShare = bytes;
			this.connection.dispatch(context, message);
		}, (error) -> {
			target.release();
			release(bytes);
			if (error instanceof TransportClosedException) {
				this.connection.requestFinished();
			}
			else {
				this.connection.answerWithError(header.version(), header.xid());
			}
		});
	}

}
