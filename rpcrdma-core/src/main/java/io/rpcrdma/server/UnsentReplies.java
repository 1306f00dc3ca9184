package io.rpcrdma.server;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.rpcrdma.transport.ReplyListener;

/**
 * Counts the replies an {@link RpcServer} handed to the transport and that are not sent yet,
 * so that a graceful shutdown lets them go out before the connections close. One listener for
 * every reply: counting allocates nothing per call, unlike a set of the transport's futures.
 */
final class UnsentReplies implements ReplyListener {

	private static final Logger logger = System.getLogger(RpcServer.class.getName());

	private final AtomicInteger count = new AtomicInteger();

	/** Set by {@link #drained()}: completed when the count next falls to zero, or at once. */
	private final AtomicReference<CompletableFuture<Void>> waiter = new AtomicReference<>();

	/** A reply is about to be handed to the transport. */
	void sending() {
		this.count.incrementAndGet();
	}

	@Override
	public void replied(int xid, Throwable failure) {
		if (failure != null) {
			logger.log(Level.DEBUG, () -> "Reply to xid " + Integer.toHexString(xid) + " failed: " + failure);
		}
		if (this.count.decrementAndGet() == 0) {
			wakeWaiter();
		}
	}

	/** @return the replies handed over and not yet sent */
	int count() {
		return this.count.get();
	}

	/**
	 * @return completes once every reply handed over so far (and any handed over meanwhile) has
	 * been sent or failed; replies handed over later still count until then
	 */
	CompletableFuture<Void> drained() {
		CompletableFuture<Void> fresh = new CompletableFuture<>();
		CompletableFuture<Void> current = this.waiter.compareAndExchange(null, fresh);
		CompletableFuture<Void> result = (current != null) ? current : fresh;
		// Checked after publishing the waiter: a reply settling in between sees the waiter, or
		// this sees its count (both are sequentially consistent), so none is missed.
		if (this.count.get() == 0) {
			wakeWaiter();
		}
		return result;
	}

	private void wakeWaiter() {
		CompletableFuture<Void> current = this.waiter.get();
		if (current != null) {
			current.complete(null);
		}
	}

}
