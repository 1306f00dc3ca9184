package io.rpcrdma.service.e2e;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.service.BulkData;

/**
 * The server side of {@link Blobs}: records whether each bulk argument reached it as a view of
 * direct (registered) memory.
 */
class BlobService implements Blobs {

	final Map<String, byte[]> blobs = new ConcurrentHashMap<>();

	volatile boolean lastArgumentDirect;

	/** When set, {@link #lend} answers from this registered buffer, which the test filled. */
	volatile RegisteredBuffer served;

	@Override
	public long put(String key, byte[] data) {
		this.blobs.put(key, data);
		return crc(ByteBuffer.wrap(data));
	}

	@Override
	public byte[] get(String key) {
		byte[] data = this.blobs.get(key);
		if (data == null) {
			throw new IllegalArgumentException("no blob " + key);
		}
		return data;
	}

	@Override
	public BulkData lend(String key) {
		byte[] data = get(key);
		RegisteredBuffer buffer = this.served;
		return (buffer != null) ? BulkData.of(buffer, data.length) : BulkData.wrap(data);
	}

	@Override
	public long putDirect(String key, BulkData data) {
		this.lastArgumentDirect = data.buffer().isDirect();
		this.blobs.put(key, data.toByteArray());
		return crc(data.buffer());
	}

	@Override
	public long checksum(ByteBuffer data) {
		this.lastArgumentDirect = data.isDirect();
		return crc(data);
	}

	@Override
	public CompletableFuture<ByteBuffer> reverseAsync(ByteBuffer data) {
		this.lastArgumentDirect = data.isDirect();
		byte[] reversed = new byte[data.remaining()];
		for (int i = 0; i < reversed.length; i++) {
			reversed[i] = data.get(data.limit() - 1 - i);
		}
		return CompletableFuture.completedFuture(ByteBuffer.wrap(reversed));
	}

	@Override
	public String echo(String text) {
		return text;
	}

	static long crc(ByteBuffer data) {
		CRC32C crc = new CRC32C();
		crc.update(data.duplicate());
		return crc.getValue();
	}

}
