package io.rpcrdma.client;

import java.nio.ByteBuffer;

import io.rpcrdma.xdr.XdrEncoder;

/**
 * A per-thread buffer calls are encoded into, so a small call costs no buffer: the transport
 * copies the encoded message before {@link io.rpcrdma.transport.RpcTransport#call} returns
 * (see {@link io.rpcrdma.transport.OutboundCall#message()}), after which the buffer is free
 * again. Calls larger than {@link #LIMIT} get a buffer of their own, so no thread keeps a
 * large buffer alive; a call encoded while the thread's buffer is in use (a call body that
 * itself calls) gets its own too.
 */
final class CallBuffer {

	/** The largest call encoded in a thread's buffer, and the most that buffer grows to. */
	static final int LIMIT = 64 * 1024;

	private static final ThreadLocal<CallBuffer> PER_THREAD = ThreadLocal.withInitial(CallBuffer::new);

	private ByteBuffer buffer = ByteBuffer.allocate(1024);

	private final XdrEncoder encoder = new XdrEncoder(this.buffer);

	private boolean busy;

	private CallBuffer() {
	}

	/**
	 * @param size the most bytes the call may take
	 * @return this thread's buffer, now busy, or {@code null} if the call is too large or the
	 * buffer is in use
	 */
	static CallBuffer acquire(int size) {
		if (size > LIMIT) {
			return null;
		}
		CallBuffer own = PER_THREAD.get();
		if (own.busy) {
			return null;
		}
		own.busy = true;
		return own;
	}

	/**
	 * @param size the most bytes the call may take
	 * @return the encoder, at the start of a buffer limited to {@code size}
	 */
	XdrEncoder encoder(int size) {
		if (this.buffer.capacity() < size) {
			this.buffer = ByteBuffer.allocate(Math.min(LIMIT, Math.max(size, this.buffer.capacity() * 2)));
		}
		this.buffer.clear().limit(size);
		return this.encoder.reset(this.buffer);
	}

	/** The call was handed to the transport (or failed): the buffer may be reused. */
	void release() {
		this.busy = false;
	}

}
