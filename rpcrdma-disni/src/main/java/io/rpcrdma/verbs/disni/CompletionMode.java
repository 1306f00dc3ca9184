package io.rpcrdma.verbs.disni;

import java.util.Locale;

/**
 * How the {@code disni} provider learns of completions for queues that have a
 * {@link io.rpcrdma.verbs.CompletionHandler}.
 */
public enum CompletionMode {

	/**
	 * Sleep on the completion channel and wake on the adapter's interrupt (verbs
	 * {@code ibv_req_notify_cq} + {@code ibv_get_cq_event}): no CPU while idle, a few
	 * microseconds more latency per wake-up. One thread per completion queue with a
	 * handler.
	 */
	EVENT("event"),

	/**
	 * Poll the completion queues in a loop on one thread per provider: the lowest latency,
	 * at the cost of one core kept busy all the time.
	 */
	BUSY_POLL("busy-poll");

	private final String value;

	CompletionMode(String value) {
		this.value = value;
	}

	/**
	 * The setting value.
	 * @return {@code event} or {@code busy-poll}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * Parses a setting value.
	 * @param value {@code event} or {@code busy-poll}, case-insensitive
	 * @return the mode
	 * @throws IllegalArgumentException for any other value
	 */
	public static CompletionMode of(String value) {
		String wanted = value.trim().toLowerCase(Locale.ROOT);
		for (CompletionMode mode : values()) {
			if (mode.value.equals(wanted)) {
				return mode;
			}
		}
		throw new IllegalArgumentException("Provider setting '" + DisniSettings.COMPLETION_MODE + "' must be 'event' or "
				+ "'busy-poll' but is '" + value + "'");
	}

}
