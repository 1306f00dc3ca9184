package io.rpcrdma.benchmarks.attack;

import java.nio.ByteBuffer;

import io.rpcrdma.service.BulkData;

/**
 * The server side of {@link AttackedService}: no work beyond what the transport does, so that
 * what an attack costs the honest calls is the server's and the transport's, not a handler's.
 */
final class AttackedServiceImpl implements AttackedService {

	/** Every result's bytes, filled once. */
	private final ByteBuffer source = filled(MAX_RESULT);

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
		if (length < 0 || length > MAX_RESULT) {
			throw new IllegalArgumentException("length must be between 0 and " + MAX_RESULT + ", got " + length);
		}
		return this.source.duplicate().limit(length).slice();
	}

	/**
	 * @param length bytes
	 * @return a direct buffer of a non-zero pattern, position 0, limit {@code length}
	 */
	static ByteBuffer filled(int length) {
		ByteBuffer data = ByteBuffer.allocateDirect(length);
		for (int i = 0; i < length; i++) {
			data.put((byte) (i * 31 + 7));
		}
		return data.flip();
	}

}
