package io.rpcrdma.benchmarks;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.rpcrdma.transport.CallCompletion;
import io.rpcrdma.xdr.OpaquePadding;

/**
 * A {@link CallCompletion} reused call after call by one thread, which parks until the
 * transport tells the outcome: what an RPC layer without a future per call would do. The
 * reply lands in its own heap buffer.
 */
final class TransportCallCompletion implements CallCompletion {

	private static final int PENDING = 0;

	private static final int REPLIED = 1;

	private static final int FAILED = 2;

	private final ByteBuffer own = ByteBuffer.allocate(1024);

	private volatile int state;

	private volatile Thread waiter;

	private ByteBuffer message;

	private Throwable failure;

	/** Readies the completion for the next call, on the calling thread. */
	void arm() {
		this.message = null;
		this.failure = null;
		this.waiter = Thread.currentThread();
		this.state = PENDING;
	}

	@Override
	public ByteBuffer replyBuffer(int length) {
		return (length <= this.own.capacity()) ? this.own.clear() : null;
	}

	@Override
	public void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding) {
		this.message = message;
		this.state = REPLIED;
		LockSupport.unpark(this.waiter);
	}

	@Override
	public void failed(Throwable failure) {
		this.failure = failure;
		this.state = FAILED;
		LockSupport.unpark(this.waiter);
	}

	/**
	 * Parks until the call ends.
	 * @param timeoutNanos the longest wait
	 * @return the reply's RPC message
	 * @throws Exception the call's failure, or {@link TimeoutException}
	 */
	ByteBuffer await(long timeoutNanos) throws Exception {
		long deadline = System.nanoTime() + timeoutNanos;
		int now;
		while ((now = this.state) == PENDING) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw new TimeoutException("No reply within " + timeoutNanos + " ns");
			}
			LockSupport.parkNanos(this, left);
		}
		if (now == FAILED) {
			Throwable cause = this.failure;
			throw (cause instanceof Exception ex) ? ex : new IllegalStateException(cause);
		}
		return this.message;
	}

}
