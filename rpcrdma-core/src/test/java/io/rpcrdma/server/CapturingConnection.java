package io.rpcrdma.server;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for a transport connection: supplies reply buffers of a fixed size, with a
 * guard region after the limit to catch writes past it, and records every reply sent.
 */
final class CapturingConnection implements ReplyBufferSupplier, ReplySink {

	static final Duration WAIT = Duration.ofSeconds(10);

	private final int bufferSize;

	private final LinkedBlockingQueue<byte[]> replies = new LinkedBlockingQueue<>();

	final AtomicInteger acquired = new AtomicInteger();

	final AtomicInteger released = new AtomicInteger();

	final List<Integer> sentXids = new ArrayList<>();

	CapturingConnection() {
		this(1024);
	}

	CapturingConnection(int bufferSize) {
		this.bufferSize = bufferSize;
	}

	@Override
	public ByteBuffer acquire(int xid) {
		this.acquired.incrementAndGet();
		// Start at an offset, as a transport reserving room for its own header would.
		ByteBuffer buffer = ByteBuffer.allocate(this.bufferSize + 16);
		buffer.position(8).limit(8 + this.bufferSize);
		return buffer;
	}

	@Override
	public void release(ByteBuffer buffer) {
		this.released.incrementAndGet();
	}

	@Override
	public void send(int xid, ByteBuffer reply) {
		synchronized (this.sentXids) {
			this.sentXids.add(xid);
		}
		this.replies.add(Wire.bytes(reply));
	}

	/** The next reply sent, waiting up to {@link #WAIT}; fails if none comes. */
	byte[] nextReply() throws InterruptedException {
		byte[] reply = this.replies.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		if (reply == null) {
			throw new AssertionError("no reply was sent within " + WAIT);
		}
		return reply;
	}

	/** The replies sent so far and not yet taken. */
	List<byte[]> drain() {
		List<byte[]> list = new ArrayList<>();
		this.replies.drainTo(list);
		return list;
	}

	int sent() {
		synchronized (this.sentXids) {
			return this.sentXids.size();
		}
	}

}
