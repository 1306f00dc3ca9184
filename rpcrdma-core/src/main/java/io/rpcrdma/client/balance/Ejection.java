package io.rpcrdma.client.balance;

import java.time.Duration;
import java.util.Objects;

import io.rpcrdma.log.Durations;
import io.rpcrdma.client.Backoff;

/**
 * When a {@link BalancedCaller} takes an instance out and how it finds it back.
 *
 * @param consecutiveFailures connection failures in a row (lost connections, connections that
 * would not open, calls no connection could be found for) that eject an instance; a reply of
 * any kind, even an RPC error, resets the count
 * @param probe the delays before each probe of an ejected instance: the n-th failed probe in a
 * row waits the n-th delay
 * @param probeTimeout how long a probe (a NULL call, procedure 0) may take
 */
public record Ejection(int consecutiveFailures, Backoff probe, Duration probeTimeout) {

	/** Validates. */
	public Ejection {
		if (consecutiveFailures < 1) {
			throw new IllegalArgumentException(
					"consecutiveFailures to eject an instance must be at least 1, got " + consecutiveFailures);
		}
		Objects.requireNonNull(probe, "probe");
		Objects.requireNonNull(probeTimeout, "probeTimeout");
		if (probeTimeout.isNegative() || probeTimeout.isZero()) {
			throw new IllegalArgumentException("probeTimeout must be positive, got " + Durations.written(probeTimeout));
		}
	}

	/**
	 * @return 5 consecutive failures eject; probes after 500 ms growing to 30 s, each allowed 2 s
	 */
	public static Ejection defaults() {
		return new Ejection(5, Backoff.exponential(Duration.ofMillis(500), Duration.ofSeconds(30)), Duration.ofSeconds(2));
	}

}
