package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32c over a range of a buffer without allocating in steady state: the view used to feed
 * {@link CRC32C#update(ByteBuffer)} is created once per distinct buffer and then reused.
 * Not thread-safe; each parser or writer owns one.
 */
final class Crc32cEngine {

	private final CRC32C crc = new CRC32C();

	private ByteBuffer source;

	private ByteBuffer view;

	int compute(ByteBuffer buffer, int offset, int length) {
		if (buffer != this.source) {
			this.source = buffer;
			this.view = buffer.duplicate();
		}
		this.view.clear();
		this.view.position(offset).limit(offset + length);
		this.crc.reset();
		this.crc.update(this.view);
		return (int) this.crc.getValue();
	}

}
