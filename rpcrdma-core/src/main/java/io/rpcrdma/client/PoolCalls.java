package io.rpcrdma.client;

/**
 * An {@link RpcClientPool}'s {@link PoolCall}s that passed their outcome on, kept for the next
 * calls, so that a call through the pool allocates nothing. Thread-safe.
 */
final class PoolCalls {

	private final RpcClientPool pool;

	private final PoolCall[] free = new PoolCall[64];

	private int count;

	PoolCalls(RpcClientPool pool) {
		this.pool = pool;
	}

	/** @return a kept call, or a new one if none is */
	PoolCall take() {
		synchronized (this) {
			if (this.count > 0) {
				PoolCall call = this.free[--this.count];
				this.free[this.count] = null;
				return call;
			}
		}
		return new PoolCall(this.pool);
	}

	/** Keeps {@code call} for a later one, if there is room. */
	synchronized void give(PoolCall call) {
		if (this.count < this.free.length) {
			this.free[this.count++] = call;
		}
	}

}
