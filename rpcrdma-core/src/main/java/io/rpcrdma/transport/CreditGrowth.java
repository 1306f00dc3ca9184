package io.rpcrdma.transport;

import java.time.Duration;
import java.util.Objects;

/**
 * How a responder's grant to one connection follows its load (RFC 8166 §3.3.1: the grant
 * may change in every reply). A connection starts with {@code initialCredits}; a requester
 * that has every granted credit in use gets twice as many, up to the configured
 * {@link TransportConfig#creditsGranted()} and the shared {@link CreditBudget}; a connection
 * that used at most half its grant for a whole {@code shrinkAfter} gets half as many, never
 * fewer than {@code initialCredits}. Receives are posted to match, so an idle connection
 * holds the receive buffers of a few credits and a busy one those of its full grant.
 *
 * @param initialCredits the grant of a new connection and the least an idle one shrinks to,
 * at least 1 (RFC 8166 §3.3.1: never zero)
 * @param shrinkAfter how long a connection uses at most half its grant before the grant halves
 */
public record CreditGrowth(int initialCredits, Duration shrinkAfter) {

	/** The default initial grant: two credits, two receives of a connection that waits. */
	public static final int DEFAULT_INITIAL_CREDITS = 2;

	/** The default time a connection under-uses its grant before the grant halves. */
	public static final Duration DEFAULT_SHRINK_AFTER = Duration.ofSeconds(1);

	/**
	 * Validates the settings.
	 */
	public CreditGrowth {
		if (initialCredits < 1 || initialCredits > 65535) {
			throw new IllegalArgumentException(
					"initialCredits must be 1 to 65535 (RFC 8166 §3.3.1: never zero), got " + initialCredits);
		}
		Objects.requireNonNull(shrinkAfter, "shrinkAfter");
		if (shrinkAfter.isNegative() || shrinkAfter.isZero()) {
			throw new IllegalArgumentException("shrinkAfter must be positive, got " + shrinkAfter);
		}
	}

	/** @return two credits to start with, halving after a second of little use */
	public static CreditGrowth defaults() {
		return new CreditGrowth(DEFAULT_INITIAL_CREDITS, DEFAULT_SHRINK_AFTER);
	}

	/**
	 * A grant that starts at its maximum and stays there: the behaviour before grants followed
	 * load, for a responder that would rather spend receive memory than ramp up.
	 * @return growth that starts at 65535 credits (capped by {@code creditsGranted})
	 */
	public static CreditGrowth fixed() {
		return new CreditGrowth(65535, DEFAULT_SHRINK_AFTER);
	}

}
