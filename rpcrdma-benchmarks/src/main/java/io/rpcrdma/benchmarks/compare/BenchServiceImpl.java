package io.rpcrdma.benchmarks.compare;

import java.nio.ByteBuffer;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.BulkData;

/**
 * The rpcrdma side of {@link BenchService}: no work beyond what the transport does, like the
 * socket and gRPC servers it is compared with. Results come from one buffer filled once; the
 * lent results of {@link #getLent} from one registered buffer of the server's pool filled
 * once, which the transport RDMA-Writes from with no copy, as the client's {@code put} lends
 * the server its registered argument (the socket server, likewise, writes from one buffer it
 * keeps).
 */
final class BenchServiceImpl implements BenchService, AutoCloseable {

	private final ByteBuffer source = Payloads.directFilled(MAX_BULK);

	/** The same bytes in the server's registered memory, or {@code null} if its pool has no room. */
	private final RegisteredBuffer registered;

	/**
	 * @param pool the server's memory pool: a {@link BufferRole#READ_CHUNK} buffer of
	 * {@link #MAX_BULK} is leased from it for good, if it has a size class that large
	 */
	BenchServiceImpl(RegisteredMemoryPool pool) {
		RegisteredBuffer leased = (pool.largestBufferSize(BufferRole.READ_CHUNK) >= MAX_BULK)
				? pool.tryLease(BufferRole.READ_CHUNK, MAX_BULK) : null;
		if (leased != null) {
			leased.buffer().duplicate().put(this.source.duplicate());
		}
		this.registered = leased;
	}

	@Override
	public byte[] echo(byte[] data) {
		return data;
	}

	@Override
	public int put(BulkData data) {
		return data.length();
	}

	@Override
	public ByteBuffer get(int length) {
		if (length < 0 || length > MAX_BULK) {
			throw new IllegalArgumentException("length must be between 0 and " + MAX_BULK + ", got " + length);
		}
		return this.source.duplicate().limit(length).slice();
	}

	@Override
	public BulkData getLent(int length) {
		ByteBuffer plain = get(length);
		return (this.registered != null) ? BulkData.of(this.registered, length) : BulkData.wrap(plain);
	}

	/** Gives the registered buffer back to the pool. */
	@Override
	public void close() {
		if (this.registered != null) {
			this.registered.release();
		}
	}

}
