package io.rpcrdma.transport;

import java.time.Duration;
import java.util.Objects;

import io.rpcrdma.log.Durations;

/**
 * What one connection's peer may make this side wait for or hold, so that a peer that stops
 * answering, or asks for much, harms its own connection and no other (RFC 8166 §8, RFC 5042
 * §5: a peer must not exhaust what all connections share).
 *
 * @param operationTimeout how long work this side posted on the connection (an RDMA Read of
 * the peer's chunk above all, and Sends and RDMA Writes, which a software iWARP peer confirms
 * with its answer to a zero-length Read) may go without any completing: a connection whose
 * oldest outstanding work request has waited this long is failed, and everything it holds
 * comes back. Work requests of one queue pair complete in order, so no completion for this
 * long means the oldest has waited at least this long.
 * @param bulkShare the most registered bulk memory (bytes) one connection holds at once for
 * the Read chunks this side pulls (a responder placing calls, a requester pulling RFC 5666
 * reply chunks); a call whose chunks would take more waits, in arrival order, until the
 * connection's own earlier calls give memory back. At least one call is always admitted, so a
 * chunk larger than the share still goes through, alone.
 * @param operationTimeoutUnderPressure the {@code operationTimeout} while calls wait for bulk
 * memory that all connections' Read chunks hold together (at most half the memory pool's
 * budget, on a server): then a connection whose peer leaves its work unanswered this long holds
 * memory honest calls are waiting for, and is failed sooner, so that peers that stop answering
 * on many connections at once cannot keep the server's bulk memory for the whole timeout
 */
public record PeerLimits(Duration operationTimeout, long bulkShare, Duration operationTimeoutUnderPressure) {

	/** Default {@link #operationTimeout()}: 30 seconds, as long as the RDMA_DONE and credit waits. */
	public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofSeconds(30);

	/** Default {@link #bulkShare()}: 64 MiB, a quarter of the default memory pool budget. */
	public static final long DEFAULT_BULK_SHARE = 64L << 20;

	/**
	 * Default {@link #operationTimeoutUnderPressure()}: 1 second, a thousand times what an RDMA
	 * Read of the largest chunk takes over loopback TCP, and more than one takes on a 1 Gb/s link.
	 */
	public static final Duration DEFAULT_OPERATION_TIMEOUT_UNDER_PRESSURE = Duration.ofSeconds(1);

	/** The defaults. */
	public static final PeerLimits DEFAULTS = new PeerLimits(DEFAULT_OPERATION_TIMEOUT, DEFAULT_BULK_SHARE,
			DEFAULT_OPERATION_TIMEOUT_UNDER_PRESSURE);

	/**
	 * Validates the limits.
	 * @throws IllegalArgumentException if the timeout is not positive or the share not positive
	 */
	public PeerLimits {
		Objects.requireNonNull(operationTimeout, "operationTimeout");
		if (operationTimeout.isNegative() || operationTimeout.isZero()) {
			throw new IllegalArgumentException("operationTimeout must be positive, got " + operationTimeout
					+ "; it bounds how long a peer may leave this side's RDMA Reads unanswered");
		}
		if (bulkShare <= 0) {
			throw new IllegalArgumentException("bulkShare must be positive, got " + bulkShare
					+ "; it is the most bulk memory one connection holds for Read chunks");
		}
		Objects.requireNonNull(operationTimeoutUnderPressure, "operationTimeoutUnderPressure");
		if (operationTimeoutUnderPressure.isNegative() || operationTimeoutUnderPressure.isZero()
				|| operationTimeoutUnderPressure.compareTo(operationTimeout) > 0) {
			throw new IllegalArgumentException("operationTimeoutUnderPressure must be positive and at most operationTimeout ("
					+ Durations.written(operationTimeout) + "), got " + Durations.written(operationTimeoutUnderPressure));
		}
	}

	/**
	 * A copy with another operation timeout.
	 * @param timeout the timeout
	 * @return the new limits
	 */
	public PeerLimits withOperationTimeout(Duration timeout) {
		return new PeerLimits(timeout, this.bulkShare,
				(this.operationTimeoutUnderPressure.compareTo(timeout) > 0) ? timeout : this.operationTimeoutUnderPressure);
	}

	/**
	 * A copy with another operation timeout under memory pressure.
	 * @param timeout the timeout, at most {@link #operationTimeout()}
	 * @return the new limits
	 */
	public PeerLimits withOperationTimeoutUnderPressure(Duration timeout) {
		return new PeerLimits(this.operationTimeout, this.bulkShare, timeout);
	}

	/**
	 * A copy with another bulk share.
	 * @param bytes the share
	 * @return the new limits
	 */
	public PeerLimits withBulkShare(long bytes) {
		return new PeerLimits(this.operationTimeout, bytes, this.operationTimeoutUnderPressure);
	}

}
