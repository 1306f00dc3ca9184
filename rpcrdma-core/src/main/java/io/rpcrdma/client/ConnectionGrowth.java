package io.rpcrdma.client;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * When an {@link RpcClientPool} opens one more connection: when even its least crowded open
 * connection carries {@link RpcClientPool.Config#callsPerConnection()} calls or has no credit
 * free, while fewer than {@link RpcClientPool.Config#maxConnections()} are open or opening.
 * Callers at once thus get connections of their own as far as the pool may open them, since a
 * connection's receive path serves its replies one reader at a time.
 * <p>
 * After a failed attempt (a server at its cap of connections from this host, say) the next
 * waits out the reconnect delay, and only one waits: crowded calls do not each start an
 * attempt, so a refusing server is not asked again at every call.
 * <p>
 * Not thread-safe: the pool holds its lock around every use, and around the delayed attempt.
 */
final class ConnectionGrowth {

	private final RpcClientPool.Config config;

	private final ConnectionUsage usage;

	private final ConnectionAttempts attempts;

	private final List<RpcClient> open;

	private final BooleanSupplier closed;

	/**
	 * @param config the pool's settings
	 * @param usage the calls each open connection carries
	 * @param attempts the pool's connection attempts
	 * @param open the pool's open connections, as they change
	 * @param closed whether the pool is closed, asked under its lock
	 */
	ConnectionGrowth(RpcClientPool.Config config, ConnectionUsage usage, ConnectionAttempts attempts,
			List<RpcClient> open, BooleanSupplier closed) {
		this.config = config;
		this.usage = usage;
		this.attempts = attempts;
		this.open = open;
		this.closed = closed;
	}

	/**
	 * A call is about to go on {@code least}: opens one more connection if even that one is
	 * crowded and there is room.
	 * @param least the least crowded open connection
	 */
	void beforeCall(RpcClient least) {
		if (!this.usage.crowded(least, this.config.callsPerConnection()) || !room()) {
			return;
		}
		if (this.attempts.failedInARow() == 0) {
			this.attempts.start();
		}
		else if (this.attempts.underWay() == 0) {
			this.attempts.later(() -> {
				if (!this.closed.getAsBoolean() && room()) {
					this.attempts.start();
				}
			});
		}
	}

	private boolean room() {
		return this.open.size() + this.attempts.underWay() < this.config.maxConnections();
	}

}
