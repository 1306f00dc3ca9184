package io.rpcrdma.client;

import java.util.concurrent.CompletableFuture;

/**
 * The future of a call made through the future-returning API: a {@link ReplyCallback} that
 * completes itself, one object per call. Cancelling it forgets the call, so a reply arriving
 * later is dropped; a reply nobody can take any more is released at once.
 */
public final class FutureReply extends CompletableFuture<ReceivedReply> implements ReplyCallback {

	/** A future that no call is linked to yet. */
	public FutureReply() {
	}

	private volatile ClientCall call;

	private volatile int generation;

	/**
	 * Links the future to the registered call, so that cancelling forgets it. Called while the
	 * transport has not been given the call, so the call cannot have been reused yet.
	 */
	void track(ClientCall registered) {
		this.generation = registered.generation();
		this.call = registered;
	}

	@Override
	public void replied(ReceivedReply reply) {
		if (!complete(reply)) {
			reply.release();
		}
	}

	@Override
	public void failed(Throwable failure) {
		completeExceptionally(failure);
	}

	@Override
	public boolean cancel(boolean mayInterruptIfRunning) {
		boolean cancelled = super.cancel(mayInterruptIfRunning);
		ClientCall registered = this.call;
		if (cancelled && registered != null) {
			registered.cancel(this.generation);
		}
		return cancelled;
	}

}
