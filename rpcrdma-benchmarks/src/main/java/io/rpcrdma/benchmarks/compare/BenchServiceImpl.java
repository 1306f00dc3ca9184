package io.rpcrdma.benchmarks.compare;

import java.nio.ByteBuffer;

import io.rpcrdma.service.BulkData;

/**
 * The rpcrdma side of {@link BenchService}: no work beyond what the transport does, like the
 * socket and gRPC servers it is compared with. Results come from one buffer filled once.
 */
final class BenchServiceImpl implements BenchService {

	private final ByteBuffer source = Payloads.directFilled(MAX_BULK);

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
		return BulkData.wrap(get(length));
	}

}
