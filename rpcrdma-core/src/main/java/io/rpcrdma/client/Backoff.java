package io.rpcrdma.client;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import io.rpcrdma.log.Durations;

/**
 * Exponential backoff with jitter, for call retries and reconnects: the n-th delay is
 * {@code min(max, initial × multiplier^(n-1))}, reduced by a random fraction of at most
 * {@code jitter} of itself so that clients that lost the same server do not return in step.
 * A pure computation: with a seeded random generator the delays are reproducible.
 */
public final class Backoff {

	private final Duration initial;

	private final Duration max;

	private final double multiplier;

	private final double jitter;

	private final RandomGenerator random;

	/**
	 * @param initial the first delay, before jitter
	 * @param max the largest delay, before jitter
	 * @param multiplier growth per attempt, at least 1
	 * @param jitter the largest fraction taken off a delay at random, 0 (none) to 1 ("full
	 * jitter")
	 * @param random the source of jitter
	 */
	public Backoff(Duration initial, Duration max, double multiplier, double jitter, RandomGenerator random) {
		this.initial = Objects.requireNonNull(initial, "initial");
		this.max = Objects.requireNonNull(max, "max");
		if (initial.isNegative() || max.compareTo(initial) < 0) {
			throw new IllegalArgumentException("backoff needs 0 <= initial <= max, not initial " + Durations.written(initial) + " and max "
					+ Durations.written(max));
		}
		if (!(multiplier >= 1.0)) {
			throw new IllegalArgumentException("backoff multiplier must be at least 1, not " + multiplier);
		}
		if (!(jitter >= 0.0 && jitter <= 1.0)) {
			throw new IllegalArgumentException("backoff jitter must be between 0 and 1, not " + jitter);
		}
		this.multiplier = multiplier;
		this.jitter = jitter;
		this.random = Objects.requireNonNull(random, "random");
	}

	/**
	 * Doubling delays from {@code initial} up to {@code max}, each reduced by up to half at
	 * random.
	 * @param initial the first delay
	 * @param max the largest delay
	 * @return the backoff
	 */
	public static Backoff exponential(Duration initial, Duration max) {
		return new Backoff(initial, max, 2.0, 0.5, ThreadLocalRandom.current());
	}

	/**
	 * @param attempt 1 for the delay before the first retry, 2 before the second, …
	 * @return the delay
	 */
	public Duration delay(int attempt) {
		if (attempt < 1) {
			throw new IllegalArgumentException("attempts are numbered from 1, not " + attempt);
		}
		double base = this.initial.toNanos() * Math.pow(this.multiplier, attempt - 1);
		double capped = Math.min(base, this.max.toNanos());
		double jittered = capped * (1.0 - this.jitter * this.random.nextDouble());
		return Duration.ofNanos((long) jittered);
	}

	/**
	 * @return the delay before jitter of every attempt once growth has reached it
	 */
	public Duration max() {
		return this.max;
	}

}
