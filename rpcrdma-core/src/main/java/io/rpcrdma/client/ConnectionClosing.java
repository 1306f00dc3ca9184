package io.rpcrdma.client;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.transport.RpcRdmaClientConnection;

/**
 * How an {@link RpcClientPool}'s connections close and give their buffers back: what
 * protects a connection is undone before it closes, and the pool's close waits, bounded,
 * for the connection attempts still under way and for every opened connection's flushed
 * receives to come back to the memory pool. Thread-safe.
 */
final class ConnectionClosing {

	/** Connections opened whose buffers are not all back yet (open ones, and lost ones still flushing). */
	private final Set<RpcClient> unreleased = ConcurrentHashMap.newKeySet();

	/**
	 * Connection attempts under way, each completing once the pool has taken (or, closed,
	 * closed) what it opened: the pool's close waits for them too, since a connection that
	 * opens just after the pool closed has receives posted all the same.
	 */
	private final Set<CompletableFuture<Void>> attempts = ConcurrentHashMap.newKeySet();

	/** @param taken completes once the pool has taken (or closed) what the attempt opened */
	void attempting(CompletableFuture<Void> taken) {
		this.attempts.add(taken);
		taken.whenComplete((ignored, never) -> this.attempts.remove(taken));
	}

	/** A connection opened: its buffers are awaited until they are back. */
	void opened(RpcClient client) {
		this.unreleased.add(client);
		released(client).whenComplete((ignored, failure) -> this.unreleased.remove(client));
	}

	/**
	 * Waits for the attempts under way, then for the opened connections' buffers, all within
	 * {@code wait}: bounded, for an attempt that would take its whole connect timeout or a
	 * provider that would never flush.
	 */
	void awaitReleased(Duration wait) {
		long deadline = System.nanoTime() + wait.toNanos();
		CompletableFuture.allOf(this.attempts.toArray(CompletableFuture[]::new))
			.completeOnTimeout(null, wait.toMillis(), TimeUnit.MILLISECONDS)
			.join();
		long left = Math.max(0, deadline - System.nanoTime());
		CompletableFuture<?>[] flushing = this.unreleased.stream()
			.map(ConnectionClosing::released)
			.toArray(CompletableFuture[]::new);
		CompletableFuture.allOf(flushing)
			.completeOnTimeout(null, left, TimeUnit.NANOSECONDS)
			.join();
	}

	/** Completes when a closed connection's buffers are all back ({@code closeFuture} for a transport that cannot tell). */
	static CompletableFuture<Void> released(RpcClient client) {
		return (client.transport() instanceof RpcRdmaClientConnection connection) ? connection.releasedFuture()
				: client.closeFuture();
	}

	/**
	 * Undoes what protects a connection (an RPCSEC_GSS destroy) without blocking, then closes
	 * the connection; completes when both are done.
	 * @param front what the connection's calls go through, or {@code null}
	 * @param client the connection
	 * @return completes when the connection is closed
	 */
	static CompletableFuture<Void> closeProtected(RpcCaller front, RpcClient client) {
		if (!(front instanceof ConnectionProtection protection)) {
			client.close();
			return CompletableFuture.completedFuture(null);
		}
		return protection.closeAsync().handle((ignored, failure) -> {
			// The server forgets a closed connection's contexts anyway.
			client.close();
			return null;
		});
	}

}
