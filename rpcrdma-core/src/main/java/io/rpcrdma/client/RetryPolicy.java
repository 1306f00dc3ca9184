package io.rpcrdma.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * When to send a failed call again: only an idempotent call, only after the connection was
 * lost (the call may or may not have executed, and executing it again is harmless), at most
 * {@code maxAttempts} times in all, after a {@link Backoff} delay, and only if the delay ends
 * before the call's overall deadline. A call the server certainly did not execute
 * ({@link RpcCallException#notExecuted()}) is not retried either: the server answered, and
 * would answer the same again.
 */
public final class RetryPolicy {

	// ThreadLocalRandom rather than RandomGenerator.getDefault(): that one is found with a
	// ServiceLoader through the context class loader, which fails under class loaders that do
	// not see the jdk.random module (AOT-processed and native applications among them).
	private static final RetryPolicy NONE = new RetryPolicy(1, new Backoff(Duration.ZERO, Duration.ZERO, 1.0, 0.0,
			ThreadLocalRandom.current()));

	private static final Runnable NO_RETRY_LISTENER = () -> {
	};

	private final int maxAttempts;

	private final Backoff backoff;

	/**
	 * @param maxAttempts the most times a call is sent, the first included
	 * @param backoff the delays between attempts
	 */
	public RetryPolicy(int maxAttempts, Backoff backoff) {
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
		}
		this.maxAttempts = maxAttempts;
		this.backoff = Objects.requireNonNull(backoff, "backoff");
	}

	/**
	 * @return a policy that never retries
	 */
	public static RetryPolicy none() {
		return NONE;
	}

	/** @return the most times a call is sent, the first included */
	public int maxAttempts() {
		return this.maxAttempts;
	}

	/** @return the delays between attempts */
	public Backoff backoff() {
		return this.backoff;
	}

	/**
	 * @param idempotent whether the procedure may execute twice
	 * @return whether a call of this kind may ever be sent a second time under this policy
	 */
	public boolean mayRetry(boolean idempotent) {
		return idempotent && this.maxAttempts > 1;
	}

	/**
	 * @param failure why the attempt failed
	 * @param idempotent whether the procedure may execute twice
	 * @return whether the failure is of a kind worth retrying for such a call
	 */
	public boolean isRetryable(Throwable failure, boolean idempotent) {
		return CallAttempts.IDEMPOTENT_AFTER_CONNECTION_LOSS.mayRetry(failure, idempotent);
	}

	/**
	 * Decides whether to retry and after how long.
	 * @param failure why the last attempt failed
	 * @param idempotent whether the procedure may execute twice
	 * @param attemptsMade how many attempts have been made so far (at least 1)
	 * @param remaining the time left until the call's deadline
	 * @return the delay before the next attempt, or empty to give up and report the failure
	 */
	public Optional<Duration> nextDelay(Throwable failure, boolean idempotent, int attemptsMade, Duration remaining) {
		return CallAttempts.decide(CallAttempts.IDEMPOTENT_AFTER_CONNECTION_LOSS, this, failure, idempotent,
				attemptsMade, remaining.toNanos(), () -> false);
	}

	/**
	 * Runs a call with retries.
	 * @param <T> the result
	 * @param attempt sends one attempt given the time left until the deadline, and returns its
	 * result
	 * @param idempotent whether the procedure may execute twice
	 * @param timeout the call's overall deadline, from now
	 * @param timer waits out the delays
	 * @param nanoClock the clock the deadline is measured on
	 * @return the first successful result, or the last failure
	 */
	public <T> CompletableFuture<T> execute(Function<Duration, CompletableFuture<T>> attempt, boolean idempotent,
			Duration timeout, CallTimer timer, LongSupplier nanoClock) {
		return execute(attempt, idempotent, timeout, timer, nanoClock, NO_RETRY_LISTENER);
	}

	/**
	 * Runs a call with retries, telling {@code onRetry} each time an attempt after the first is
	 * scheduled (for retry counters).
	 * @param <T> the result
	 * @param attempt sends one attempt given the time left until the deadline, and returns its
	 * result
	 * @param idempotent whether the procedure may execute twice
	 * @param timeout the call's overall deadline, from now
	 * @param timer waits out the delays
	 * @param nanoClock the clock the deadline is measured on
	 * @param onRetry told of each retry; must be cheap and must not block
	 * @return the first successful result, or the last failure
	 */
	public <T> CompletableFuture<T> execute(Function<Duration, CompletableFuture<T>> attempt, boolean idempotent,
			Duration timeout, CallTimer timer, LongSupplier nanoClock, Runnable onRetry) {
		Objects.requireNonNull(onRetry, "onRetry");
		long deadline = nanoClock.getAsLong() + timeout.toNanos();
		CompletableFuture<T> result = new CompletableFuture<>();
		run(attempt, idempotent, deadline, timer, nanoClock, 1, result, onRetry);
		return result;
	}

	private <T> void run(Function<Duration, CompletableFuture<T>> attempt, boolean idempotent, long deadline,
			CallTimer timer, LongSupplier nanoClock, int number, CompletableFuture<T> result, Runnable onRetry) {
		if (result.isDone()) {
			return;
		}
		CompletableFuture<T> sent;
		try {
			sent = attempt.apply(Duration.ofNanos(Math.max(0, deadline - nanoClock.getAsLong())));
		}
		catch (RuntimeException ex) {
			sent = CompletableFuture.failedFuture(ex);
		}
		if (sent == null) {
			sent = CompletableFuture.failedFuture(new NullPointerException("a retry attempt returned no future"));
		}
		sent.whenComplete((value, failure) -> {
			if (failure == null) {
				result.complete(value);
				return;
			}
			Duration remaining = Duration.ofNanos(deadline - nanoClock.getAsLong());
			Optional<Duration> delay = nextDelay(failure, idempotent, number, remaining);
			if (delay.isEmpty()) {
				result.completeExceptionally(unwrap(failure));
			}
			else {
				onRetry.run();
				timer.schedule(delay.get(),
						() -> run(attempt, idempotent, deadline, timer, nanoClock, number + 1, result, onRetry));
			}
		});
	}

	/** The failure inside any {@link CompletionException} or {@link ExecutionException} wrappers. */
	static Throwable unwrap(Throwable failure) {
		Throwable current = failure;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

}
