package io.rpcrdma.verbs.disni;

import io.rpcrdma.verbs.RdmaProviderConfig;

/**
 * The settings of the {@code disni} provider, read from {@link RdmaProviderConfig} keys
 * (the constants below); every one has a default.
 *
 * @param localAddress the IPv4 address of the RDMA interface to use, which selects the
 * device; {@code null} to take the first address of an interface that has an RDMA device
 * @param completionMode how completions are waited for
 * @param retryCount the transport retry count of connections, 0 to 7 (both ends of a connection
 * ask for it: the requester in its connect, the listener in its accept)
 * @param requesterRnrRetryCount the RNR retry count a requester asks for in its connect, which
 * rules the responder's Sends to it (replies and backward calls), 0 to 7 ({@link CmRetries})
 * @param pollBatch how many completions one {@code ibv_poll_cq} call takes at most
 * @param maxInlineData sends and writes of up to this many bytes are copied into the work
 * request ({@code IBV_SEND_INLINE}), 0 to turn inlining off
 * @param cmPollMillis how long the connection manager thread waits for an event before it
 * looks at its other work (bounds how late a connect timeout can fire)
 * @param cqWaitMillis how long an event-mode completion thread sleeps before it checks
 * whether its queue was closed
 * @param flushGraceMillis how long closing a queue pair waits for the adapter to flush its
 * outstanding work requests before the provider reports them flushed itself
 * @param completionQueues how many adapter completion queues the provider's queue pairs
 * share, each with one event thread in {@link CompletionMode#EVENT}
 * @param completionQueueEntries the entries of each shared adapter completion queue (fewer
 * if the device allows fewer), which bounds the queue pairs it serves: each reserves its send
 * and receive queue depths
 */
public record DisniSettings(String localAddress, CompletionMode completionMode, int retryCount,
		int requesterRnrRetryCount, int pollBatch, int maxInlineData, int cmPollMillis, int cqWaitMillis,
		int flushGraceMillis, int completionQueues, int completionQueueEntries) {

	/** Setting: the IPv4 address of the RDMA interface (selects the device). */
	public static final String LOCAL_ADDRESS = "disni.local-address";

	/** Setting: {@code event} (default) or {@code busy-poll}. */
	public static final String COMPLETION_MODE = "disni.completion-mode";

	/** Setting: transport retry count, 0 to 7 (default {@value #DEFAULT_RETRY_COUNT}). */
	public static final String RETRY_COUNT = "disni.retry-count";

	/**
	 * The default of {@link #RETRY_COUNT}: xprtrdma's 6 (rpcrdma_ep_create), so that a broken
	 * path fails the connection after a bounded number of transport retries and the RPC layer
	 * reconnects and retransmits, rather than the queue pair retrying as long as it may.
	 */
	static final int DEFAULT_RETRY_COUNT = 6;

	/**
	 * Setting: the RNR retry count a requester asks for, 0 to 7, 7 unlimited (default
	 * {@value #DEFAULT_REQUESTER_RNR_RETRY_COUNT}).
	 */
	public static final String REQUESTER_RNR_RETRY_COUNT = "disni.requester-rnr-retry-count";

	/**
	 * The default of {@link #REQUESTER_RNR_RETRY_COUNT}: xprtrdma's 0. A requester posts the
	 * receive of every reply its credits allow, and of every backward call its backward credits
	 * allow, before it sends (RFC 8166 section 3.3.1), so a responder's Send that finds none is
	 * a bug to see at once, not to retry.
	 */
	static final int DEFAULT_REQUESTER_RNR_RETRY_COUNT = 0;

	/** Setting: completions per poll call (default 16). */
	public static final String POLL_BATCH = "disni.poll-batch";

	/** Setting: inline data threshold in bytes (default 0, off). */
	public static final String MAX_INLINE_DATA = "disni.max-inline-data";

	/** Setting: connection manager wait, in milliseconds (default 10). */
	public static final String CM_POLL_MILLIS = "disni.cm-poll-millis";

	/** Setting: event-mode completion wait, in milliseconds (default 100). */
	public static final String CQ_WAIT_MILLIS = "disni.cq-wait-millis";

	/** Setting: flush grace period on close, in milliseconds (default 200). */
	public static final String FLUSH_GRACE_MILLIS = "disni.flush-grace-millis";

	/** Setting: shared adapter completion queues (default {@value #DEFAULT_COMPLETION_QUEUES}). */
	public static final String COMPLETION_QUEUES = "disni.completion-queues";

	/**
	 * The default of {@link #COMPLETION_QUEUES}, whatever the processors: a queue pair of the
	 * transport with its default depths (88 sends, 40 receives) reserves 128 entries of a
	 * 32,768-entry queue, 208 with memory windows, so one queue holds 256 connections (157) and
	 * four hold 1,024 (628); with the fixed 512 sends of before, one held 59 and a server on a
	 * one-processor host stopped there (issue #34). Queues, and their threads in event mode,
	 * are made only as queue pairs need them.
	 */
	static final int DEFAULT_COMPLETION_QUEUES = 4;

	/** Setting: entries per shared adapter completion queue (default 32768). */
	public static final String COMPLETION_QUEUE_ENTRIES = "disni.completion-queue-entries";

	/** The most shared completion queues, and so completion threads, a provider may have. */
	static final int MAX_COMPLETION_QUEUES = 64;

	/**
	 * Validates the settings.
	 * @param localAddress the interface address, or {@code null}
	 * @param completionMode how completions are waited for
	 * @param retryCount the transport retry count
	 * @param requesterRnrRetryCount the RNR retry count a requester asks for
	 * @param pollBatch completions per poll call
	 * @param maxInlineData the inline threshold
	 * @param cmPollMillis the connection manager wait
	 * @param cqWaitMillis the completion wait
	 * @param flushGraceMillis the flush grace period
	 * @param completionQueues the shared completion queues
	 * @param completionQueueEntries the entries of each
	 */
	public DisniSettings {
		if (completionMode == null) {
			throw new IllegalArgumentException("A completion mode is required");
		}
		localAddress = (localAddress == null || localAddress.isBlank()) ? null : localAddress.trim();
		check(RETRY_COUNT, retryCount, 0, 7);
		check(REQUESTER_RNR_RETRY_COUNT, requesterRnrRetryCount, 0, 7);
		check(POLL_BATCH, pollBatch, 1, 1024);
		check(MAX_INLINE_DATA, maxInlineData, 0, 4096);
		check(CM_POLL_MILLIS, cmPollMillis, 1, 10_000);
		check(CQ_WAIT_MILLIS, cqWaitMillis, 1, 10_000);
		check(FLUSH_GRACE_MILLIS, flushGraceMillis, 0, 60_000);
		check(COMPLETION_QUEUES, completionQueues, 1, MAX_COMPLETION_QUEUES);
		check(COMPLETION_QUEUE_ENTRIES, completionQueueEntries, 256, 1 << 22);
	}

	/**
	 * The defaults: automatic device selection, event mode.
	 * @return the default settings
	 */
	public static DisniSettings defaults() {
		return from(RdmaProviderConfig.defaults());
	}

	/**
	 * Reads the settings from a provider configuration; unknown keys are ignored.
	 * @param config the configuration
	 * @return the settings
	 * @throws IllegalArgumentException if a value is malformed or out of range
	 */
	public static DisniSettings from(RdmaProviderConfig config) {
		return new DisniSettings(config.get(LOCAL_ADDRESS).orElse(null),
				CompletionMode.of(config.get(COMPLETION_MODE).orElse(CompletionMode.EVENT.value())),
				config.getInt(RETRY_COUNT, DEFAULT_RETRY_COUNT),
				config.getInt(REQUESTER_RNR_RETRY_COUNT, DEFAULT_REQUESTER_RNR_RETRY_COUNT),
				config.getInt(POLL_BATCH, 16), config.getInt(MAX_INLINE_DATA, 0),
				config.getInt(CM_POLL_MILLIS, 10), config.getInt(CQ_WAIT_MILLIS, 100),
				config.getInt(FLUSH_GRACE_MILLIS, 200),
				config.getInt(COMPLETION_QUEUES, DEFAULT_COMPLETION_QUEUES),
				config.getInt(COMPLETION_QUEUE_ENTRIES, 32768));
	}

	private static void check(String key, int value, int min, int max) {
		if (value < min || value > max) {
			throw new IllegalArgumentException(
					"Provider setting '" + key + "' must be " + min + " to " + max + " but is " + value);
		}
	}

}
