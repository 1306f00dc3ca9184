package io.rpcrdma.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One call's attempts under a {@link RetryPolicy}: the call's one deadline, the attempts made so
 * far, and, once an attempt has failed, whether to send another and when. The one retry decision
 * of the client: {@link RpcClientPool}'s calls (another connection to the same server),
 * {@code balance.BalancedCaller}'s (another instance) and {@link RetryPolicy#execute} all take it
 * from here. They differ only in the {@link Rule} of which failures may be sent again, and in
 * whether another target can take the call at once, without waiting out a backoff delay.
 * <p>
 * Held by a call object that is reused call after call, so it is reset by {@link #start} rather
 * than created per call; not thread-safe (one attempt of a call runs at a time).
 */
public final class CallAttempts {

	/**
	 * The rule of a caller that can only send the call again to the same server: an idempotent
	 * call lost with its connection (RFC 5531 §4: a caller that gets no reply cannot tell whether the
	 * procedure ran; running an idempotent one again is harmless). A non-idempotent one is not: its {@link ConnectionLostException} says it may or
	 * may not have run, and only the application can tell. Nor is a call that found no connection
	 * ({@link PoolExhaustedException}): the pool waited for one as long as the call could.
	 */
	public static final Rule IDEMPOTENT_AFTER_CONNECTION_LOSS = (failure, idempotent) -> idempotent
			&& RetryPolicy.unwrap(failure) instanceof ConnectionLostException;

	private static final BooleanSupplier NOWHERE_ELSE = () -> false;

	private final Rule rule;

	private long deadline;

	private int made;

	private boolean idempotent;

	/**
	 * @param rule which failed attempts may be sent again
	 */
	public CallAttempts(Rule rule) {
		this.rule = Objects.requireNonNull(rule, "rule");
	}

	/**
	 * Starts a call: its deadline runs from now, no attempt made yet.
	 * @param timeout the call's overall deadline, from now
	 * @param idempotent whether the procedure may execute twice
	 */
	public void start(Duration timeout, boolean idempotent) {
		this.deadline = System.nanoTime() + timeout.toNanos();
		this.made = 0;
		this.idempotent = idempotent;
	}

	/** Counts an attempt about to be sent. */
	public void begin() {
		this.made++;
	}

	/** @return how many attempts have begun */
	public int made() {
		return this.made;
	}

	/** @return whether the call's procedure may execute twice */
	public boolean idempotent() {
		return this.idempotent;
	}

	/**
	 * @return the time left until the call's deadline, at least a millisecond: an attempt sent at
	 * the last moment still gets a deadline of its own, which then fails it
	 */
	public Duration remaining() {
		long left = this.deadline - System.nanoTime();
		return (left > 0) ? Duration.ofNanos(left) : Duration.ofMillis(1);
	}

	/**
	 * After a failed attempt, when to send the next one to the same target.
	 * @param failure why the attempt failed
	 * @param policy the attempts and the backoff delays allowed
	 * @return the delay, or empty to give up and report the failure
	 */
	public Optional<Duration> next(Throwable failure, RetryPolicy policy) {
		return next(failure, policy, NOWHERE_ELSE);
	}

	/**
	 * After a failed attempt, when to send the next one.
	 * @param failure why the attempt failed
	 * @param policy the attempts and the backoff delays allowed
	 * @param elsewhereNow asked only when a retry is allowed: whether another target can take the
	 * call at once; then the next attempt goes now ({@link Duration#ZERO}) instead of after a
	 * backoff delay
	 * @return the delay, or empty to give up and report the failure
	 */
	public Optional<Duration> next(Throwable failure, RetryPolicy policy, BooleanSupplier elsewhereNow) {
		return decide(this.rule, policy, failure, this.idempotent, this.made, this.deadline - System.nanoTime(),
				elsewhereNow);
	}

	/**
	 * The decision: the rule must allow sending the failure again, the policy must have attempts
	 * left and the deadline must not have passed; then at once where another target is ready, or
	 * else after the policy's backoff delay if that ends before the deadline.
	 */
	static Optional<Duration> decide(Rule rule, RetryPolicy policy, Throwable failure, boolean idempotent, int made,
			long leftNanos, BooleanSupplier elsewhereNow) {
		if (made >= policy.maxAttempts() || leftNanos <= 0 || !rule.mayRetry(failure, idempotent)) {
			return Optional.empty();
		}
		if (elsewhereNow.getAsBoolean()) {
			return Optional.of(Duration.ZERO);
		}
		Duration delay = policy.backoff().delay(made);
		return (delay.toNanos() < leftNanos) ? Optional.of(delay) : Optional.empty();
	}

	/**
	 * Which failed attempts may be sent again.
	 */
	@FunctionalInterface
	public interface Rule {

		/**
		 * @param failure why the attempt failed
		 * @param idempotent whether the procedure may execute twice
		 * @return whether the call may be sent again
		 */
		boolean mayRetry(Throwable failure, boolean idempotent);

	}

}
