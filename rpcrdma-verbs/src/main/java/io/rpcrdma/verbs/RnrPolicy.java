package io.rpcrdma.verbs;

import java.time.Duration;
import java.util.Objects;

/**
 * What a sender does when the peer has no receive posted for its Send
 * (receiver-not-ready, verbs {@code rnr_retry} and {@code min_rnr_timer}): retry after
 * {@code timer}, up to {@code retryCount} times, then complete the Send with
 * {@link CompletionStatus#RNR_RETRY_EXC_ERR} and fail the connection. A count of
 * {@value #INFINITE} retries forever, as in InfiniBand.
 * <p>
 * Software providers also retry as soon as the peer posts a receive. RPC-over-RDMA's
 * credits (RFC 5666 §3.3, RFC 8166) exist so that receiver-not-ready never happens; when it does,
 * something is wrong, and failing fast is usually right.
 *
 * @param retryCount retries after the first attempt, 0 to 7; 7 means unlimited
 * @param timer the delay before each retry
 */
public record RnrPolicy(int retryCount, Duration timer) {

	/** The retry count that means "retry forever". */
	public static final int INFINITE = 7;

	/** Six retries, one millisecond apart. */
	public static final RnrPolicy DEFAULT = new RnrPolicy(6, Duration.ofMillis(1));

	/**
	 * Validates the policy.
	 * @param retryCount retries after the first attempt, 0 to 7
	 * @param timer the delay before each retry
	 */
	public RnrPolicy {
		if (retryCount < 0 || retryCount > INFINITE) {
			throw new IllegalArgumentException("RNR retry count must be 0 to 7 (7 = unlimited), got " + retryCount);
		}
		Objects.requireNonNull(timer, "timer");
		if (timer.isNegative() || timer.isZero()) {
			throw new IllegalArgumentException("RNR timer must be positive, got " + timer);
		}
	}

	/**
	 * Whether the sender retries forever.
	 * @return {@code true} if the retry count is {@value #INFINITE}
	 */
	public boolean isInfinite() {
		return this.retryCount == INFINITE;
	}

}
