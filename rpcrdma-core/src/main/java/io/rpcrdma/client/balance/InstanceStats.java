package io.rpcrdma.client.balance;

import java.time.Instant;

/**
 * One instance of a {@link BalancedCaller} at one moment, for health and the management
 * endpoint.
 *
 * @param instance the instance
 * @param state where it stands
 * @param outstanding calls sent to it and not yet ended
 * @param consecutiveFailures connection failures since its last success
 * @param lastFailure the message of its last connection failure, or {@code null} if none
 * @param lastFailureTime when that was, or {@code null}
 */
public record InstanceStats(ServerInstance instance, InstanceState state, int outstanding, int consecutiveFailures,
		String lastFailure, Instant lastFailureTime) {

	@Override
	public String toString() {
		return this.instance + " " + this.state
				+ ((this.consecutiveFailures > 0) ? " after " + this.consecutiveFailures + " consecutive failures" : "")
				+ ((this.lastFailure != null) ? " (last: " + this.lastFailure + ")" : "");
	}

}
