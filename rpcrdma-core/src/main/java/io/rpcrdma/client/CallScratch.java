package io.rpcrdma.client;

import java.nio.ByteBuffer;

import io.rpcrdma.xdr.XdrEncoder;

/**
 * A per-thread buffer calls are encoded into, so a small call costs no buffer: the transport
 * copies the encoded message before {@link io.rpcrdma.transport.RpcTransport#call} returns
 * (see {@link io.rpcrdma.transport.OutboundCall#message()}), after which the scratch is free
 * again. Calls larger than {@link #LIMIT} get a buffer of their own, so no thread keeps a
 * large buffer alive; a call encoded while the thread's scratch is in use (a call body that
 * itself calls) gets its own too.
 */
final class CallScratch {

	/** The largest call encoded in scratch, and the most a thread's scratch grows to. */
	static final int LIMIT = 64 * 1024;

	private static final ThreadLocal<CallScratch> SCRATCH = ThreadLocal.withInitial(CallScratch::new);

	private ByteBuffer buffer = ByteBuffer.allocate(1024);

	private final XdrEncoder encoder = new XdrEncoder(this.buffer);

	private boolean busy;

	private CallScratch() {
	}

	/**
	 * @param size the most bytes the call may take
	 * @return this thread's scratch, now busy, or {@code null} if the call is too large or the
	 * scratch is in use
	 */
	static CallScratch acquire(int size) {
		if (size > LIMIT) {
			return null;
		}
		CallScratch scratch = SCRATCH.get();
		if (scratch.busy) {
			return null;
		}
		scratch.busy = true;
		return scratch;
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

	/** The call was handed to the transport (or failed): the scratch may be reused. */
	void release() {
		this.busy = false;
	}

}
