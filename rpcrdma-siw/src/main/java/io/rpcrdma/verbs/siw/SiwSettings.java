package io.rpcrdma.verbs.siw;

import java.time.Duration;

import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.siw.wire.CrcPolicy;
import io.rpcrdma.verbs.siw.wire.MpaIrdOrd;

/**
 * The settings of the software iWARP provider, read from {@link RdmaProviderConfig} keys:
 * <ul>
 * <li>{@code siw.crc}: {@code off} (default; CRC32c is used when the peer asks, RFC 5044
 * §7.1) or {@code require} (ask for it and refuse a peer that will not use it);</li>
 * <li>{@code siw.ird} and {@code siw.ord}: the inbound and outbound RDMA Read queue depths
 * offered in the RFC 6581 enhanced MPA exchange (default 32 each, at most 16383);</li>
 * <li>{@code siw.mss}: the effective MSS FPDUs are sized for (RFC 5044 §4); 0 (default)
 * picks what Linux uses with TCP timestamps: 65483 (IPv4) or 65464 (IPv6) on loopback
 * addresses, whose MTU is 64 KiB, and 1448 or 1428 over Ethernet;</li>
 * <li>{@code siw.rnr-grace-millis}: how long a Send that finds no posted receive waits for one
 * at least, whatever the receiving queue pair's {@link io.rpcrdma.verbs.RnrPolicy} says
 * (iWARP has no receiver-not-ready retry on the wire; default 250);</li>
 * <li>{@code siw.mpa-timeout-millis}: how long a responder waits for the initiator's MPA
 * Request (default 10000), however slowly its bytes arrive; then it closes the TCP
 * connection;</li>
 * <li>{@code siw.keepalive}: {@code true} (default) to set SO_KEEPALIVE, probing an idle
 * peer after 30 s and giving up after 3 unanswered probes 5 s apart (where the platform
 * supports those options), so that a half-open connection fails within about 45 s;</li>
 * <li>{@code siw.max-queue-pairs}: the most queue pairs the provider has open at once (a
 * device's {@code max_qp}; default {@value #DEFAULT_MAX_QUEUE_PAIRS}). Each connection has a
 * queue pair and a socket (but no thread of its own), so this bounds the provider's sockets:
 * a server whose provider is full refuses new connections, and a client's connect fails with
 * {@link io.rpcrdma.verbs.QueuePairLimitException}. It also bounds the accepted TCP
 * connections waiting for their MPA Request or its answer (on the I/O threads), which have
 * no queue pair yet: beyond as many, a listener closes a new TCP connection at once, unread.</li>
 * <li>{@code siw.caller-receives}: {@code true} (default) to let a caller that waits for its
 * reply read it from the socket itself, instead of being woken by the I/O thread that reads
 * the connection ({@link io.rpcrdma.verbs.WaitingCaller}); {@code false} keeps every read on
 * the I/O threads.</li>
 * <li>{@code siw.caller-spin-micros}: how long a caller that reads its own reply
 * ({@code siw.caller-receives}) polls the socket before it sleeps in {@code epoll} (default
 * {@value #DEFAULT_CALLER_SPIN_MICROS}, at most {@value #MAX_CALLER_SPIN_MICROS}; 0 never
 * polls, and neither does a JVM with one processor, where the poll would hold the CPU the
 * peer needs). A reply that arrives while the caller polls costs no wake-up; a connection
 * whose replies keep missing the poll stops polling for a while ({@link CallerSpin}).</li>
 * <li>{@code siw.io-poll-micros}: how long an I/O thread polls its sockets before it sleeps in
 * {@code epoll}, after a turn in which one of them was ready, or while a connection it serves
 * is owed the rest of an FPDU, a message or a Read Response (default
 * {@value #DEFAULT_CALLER_SPIN_MICROS}, at most {@value #MAX_CALLER_SPIN_MICROS}; 0 never
 * polls, and neither does a JVM with one processor). The next call of a busy connection then
 * finds the thread awake: on a virtual machine waking a sleeping thread on an idle CPU costs
 * more than the poll (docs/performance.md, "An I/O thread that polls after serving"). Polls
 * after serving that keep running out back off as a caller's do ({@link CallerSpin}).</li>
 * <li>{@code siw.fpdu-timeout-millis}: how long the rest of an FPDU may take once the receive
 * path waits for it, and the next segment of a DDP message once one without L arrived
 * (default {@value #DEFAULT_FPDU_TIMEOUT_MILLIS}), however slowly the bytes come: a peer that
 * sends the header of a segment, or the first segment of a Send, and stops gets a Terminate
 * (LLP "TCP connection lost", RFC 5044 §8) then and its connection's work requests flush,
 * instead of it holding the connection's receive path (and the memory a tagged segment names,
 * or the receive a Send took) for ever. Each FPDU that completes restarts the clock; between
 * messages there is none. A segment of 64 KiB takes microseconds on any link this provider is
 * meant for.</li>
 * <li>{@code siw.first-message-nudge-millis}: how long the peer of a connection this
 * provider initiated may stay silent after the first message before a zero-length RDMA Read
 * Request nudges it (default {@value #DEFAULT_FIRST_MESSAGE_NUDGE_MILLIS}, at most
 * {@value #MAX_FIRST_MESSAGE_NUDGE_MILLIS}; 0 never nudges). Linux's siw leaves an FPDU that
 * reaches a passive connection before its receive upcall is installed unread until the next
 * segment arrives; the nudge is that segment. Up to three, the delay doubling, none once the
 * peer sent anything.</li>
 * <li>{@code siw.io-threads}: how many I/O threads the provider's connections share (default:
 * the available processors; at most {@value #MAX_IO_THREADS}). They finish what a posting
 * thread could not transmit at once (the socket full, a message beyond 256 KiB), wait for
 * passive connections' MPA Requests and close streams; a connection has no
 * transmit thread of its own. Threads start as
 * connections need them.</li>
 * </ul>
 *
 * @param crcPolicy whether to ask for MPA CRC
 * @param ird inbound Read Requests accepted at once
 * @param ord outbound Read Requests in flight at once
 * @param mss the effective MSS, or 0 for automatic
 * @param rnrGrace the least time a Send waits for a receive
 * @param mpaTimeout how long a responder waits for the MPA Request
 * @param keepAlive whether to set SO_KEEPALIVE
 * @param maxQueuePairs the most queue pairs open at once
 * @param callerReceives whether a waiting caller may run the receive path
 * @param callerSpin how long a caller reading its own reply polls before it sleeps, zero for
 * not at all
 * @param fpduTimeout how long the rest of an FPDU, or of a DDP message, may take
 * @param ioThreads how many I/O threads the connections share
 * @param firstMessageNudge how long an initiator's peer may stay silent after the first
 * message before a zero-length Read Request nudges it, zero for never
 * @param ioPoll how long an I/O thread polls its sockets before it sleeps, after serving one
 * or while bytes are owed, zero for not at all
 */
public record SiwSettings(CrcPolicy crcPolicy, int ird, int ord, int mss, Duration rnrGrace, Duration mpaTimeout,
		boolean keepAlive, int maxQueuePairs, boolean callerReceives, Duration callerSpin,
		Duration fpduTimeout, int ioThreads, Duration firstMessageNudge, Duration ioPoll) {

	/** Setting key for the CRC policy. */
	public static final String CRC = "siw.crc";

	/** Setting key for the IRD. */
	public static final String IRD = "siw.ird";

	/** Setting key for the ORD. */
	public static final String ORD = "siw.ord";

	/** Setting key for the MSS. */
	public static final String MSS = "siw.mss";

	/** Setting key for the receiver-not-ready grace time. */
	public static final String RNR_GRACE_MILLIS = "siw.rnr-grace-millis";

	/** Setting key for the MPA Request timeout. */
	public static final String MPA_TIMEOUT_MILLIS = "siw.mpa-timeout-millis";

	/** Setting key for SO_KEEPALIVE. */
	public static final String KEEPALIVE = "siw.keepalive";

	/** Setting key for the most queue pairs open at once. */
	public static final String MAX_QUEUE_PAIRS = "siw.max-queue-pairs";

	/** Setting key for whether waiting callers may read their replies themselves. */
	public static final String CALLER_RECEIVES = "siw.caller-receives";

	/** Setting key for how long a caller reading its own reply polls before it sleeps. */
	public static final String CALLER_SPIN_MICROS = "siw.caller-spin-micros";

	/** Setting key for how long the rest of an FPDU, or of a DDP message, may take. */
	public static final String FPDU_TIMEOUT_MILLIS = "siw.fpdu-timeout-millis";

	/** Setting key for how long an I/O thread polls its sockets before it sleeps. */
	public static final String IO_POLL_MICROS = "siw.io-poll-micros";

	/** Setting key for how many I/O threads the provider's connections share. */
	public static final String IO_THREADS = "siw.io-threads";

	/** Setting key for how long an initiator's peer may stay silent before it is nudged. */
	public static final String FIRST_MESSAGE_NUDGE_MILLIS = "siw.first-message-nudge-millis";

	/**
	 * The default of {@link #FIRST_MESSAGE_NUDGE_MILLIS}: longer than a first reply takes on a
	 * host that is not overloaded, so that a nudge is seldom sent for nothing, and short next to
	 * the deadlines of a first call.
	 */
	public static final int DEFAULT_FIRST_MESSAGE_NUDGE_MILLIS = 20;

	/** The largest {@link #FIRST_MESSAGE_NUDGE_MILLIS}: ten seconds. */
	public static final int MAX_FIRST_MESSAGE_NUDGE_MILLIS = 10_000;

	/** The largest {@link #IO_THREADS}: more would only add selectors that wait. */
	public static final int MAX_IO_THREADS = 256;

	/** The default of {@link #FPDU_TIMEOUT_MILLIS}: ten seconds, as for the MPA Request. */
	public static final int DEFAULT_FPDU_TIMEOUT_MILLIS = 10_000;

	/**
	 * The default of {@link #CALLER_SPIN_MICROS}: longer than a small call's round trip on an
	 * idle host (10-25 µs over loopback TCP), so that its reply is caught by the poll, and short
	 * enough that a missed poll costs little next to the wait that follows it.
	 */
	public static final int DEFAULT_CALLER_SPIN_MICROS = 50;

	/** The largest {@link #CALLER_SPIN_MICROS}: a millisecond. */
	public static final int MAX_CALLER_SPIN_MICROS = 1000;

	/**
	 * The default of {@link #MAX_QUEUE_PAIRS}: room for ten thousand connections to one server
	 * (issue #34). The provider's sockets, at most two per queue pair, also count against the
	 * process's file descriptor limit (the JVM raises its soft limit to the hard one), which
	 * is the tighter bound on hosts that set it below 32,768.
	 */
	public static final int DEFAULT_MAX_QUEUE_PAIRS = 16_384;

	/**
	 * The most MPA private data this provider sends: IRD/ORD plus the SPI's
	 * {@link PrivateData#MAX_LENGTH}, within Linux siw's 256-byte limit.
	 */
	public static final int MAX_MPA_PRIVATE_DATA = MpaIrdOrd.LENGTH + PrivateData.MAX_LENGTH;

	/**
	 * Validates the settings.
	 * @param crcPolicy whether to ask for MPA CRC
	 * @param ird inbound Read Requests accepted at once
	 * @param ord outbound Read Requests in flight at once
	 * @param mss the effective MSS, or 0 for automatic
	 * @param rnrGrace the least time a Send waits for a receive
	 * @param mpaTimeout how long a responder waits for the MPA Request
	 * @param keepAlive whether to set SO_KEEPALIVE
	 * @param maxQueuePairs the most queue pairs open at once
	 * @param callerReceives whether a waiting caller may run the receive path
		 * @param callerSpin how long a caller reading its own reply polls before it sleeps, zero
	 * for not at all
	 * @param fpduTimeout how long the rest of an FPDU, or of a DDP message, may take
	 * @param ioThreads how many I/O threads the connections share
	 * @param firstMessageNudge how long an initiator's peer may stay silent after the first
	 * message before a zero-length Read Request nudges it, zero for never
	 * @param ioPoll how long an I/O thread polls its sockets before it sleeps, zero for not at all
	 */
	public SiwSettings {
		if (ird < 1 || ird > MpaIrdOrd.MAX_VALUE || ord < 1 || ord > MpaIrdOrd.MAX_VALUE) {
			throw new IllegalArgumentException(IRD + " and " + ORD + " must be 1 to " + MpaIrdOrd.MAX_VALUE
					+ " (RFC 6581 has 14 bits for them), got " + ird + " and " + ord);
		}
		if (mss != 0 && (mss < 128 || mss > 65535)) {
			throw new IllegalArgumentException(MSS + " must be 0 (automatic) or 128 to 65535, got " + mss);
		}
		if (rnrGrace.isNegative() || mpaTimeout.isNegative() || mpaTimeout.isZero()) {
			throw new IllegalArgumentException(RNR_GRACE_MILLIS + " must not be negative and " + MPA_TIMEOUT_MILLIS
					+ " must be positive");
		}
		if (maxQueuePairs < 1) {
			throw new IllegalArgumentException(MAX_QUEUE_PAIRS + " must be at least 1, got " + maxQueuePairs);
		}
		if (callerSpin.isNegative() || callerSpin.compareTo(Duration.ofNanos(MAX_CALLER_SPIN_MICROS * 1000L)) > 0) {
			throw new IllegalArgumentException(CALLER_SPIN_MICROS + " must be 0 to " + MAX_CALLER_SPIN_MICROS
					+ " (a millisecond), got " + callerSpin.toNanos() / 1000 + " µs");
		}
		if (ioPoll.isNegative() || ioPoll.compareTo(Duration.ofNanos(MAX_CALLER_SPIN_MICROS * 1000L)) > 0) {
			throw new IllegalArgumentException(IO_POLL_MICROS + " must be 0 to " + MAX_CALLER_SPIN_MICROS
					+ " (a millisecond), got " + ioPoll.toNanos() / 1000 + " µs");
		}
		if (fpduTimeout.isNegative() || fpduTimeout.isZero()) {
			throw new IllegalArgumentException(FPDU_TIMEOUT_MILLIS + " must be positive, got " + fpduTimeout.toMillis()
					+ " ms; it bounds how long a peer may leave an FPDU half sent");
		}
		if (ioThreads < 1 || ioThreads > MAX_IO_THREADS) {
			throw new IllegalArgumentException(IO_THREADS + " must be 1 to " + MAX_IO_THREADS + ", got " + ioThreads);
		}
		if (firstMessageNudge.isNegative()
				|| firstMessageNudge.compareTo(Duration.ofMillis(MAX_FIRST_MESSAGE_NUDGE_MILLIS)) > 0) {
			throw new IllegalArgumentException(FIRST_MESSAGE_NUDGE_MILLIS + " must be 0 (never) to "
					+ MAX_FIRST_MESSAGE_NUDGE_MILLIS + ", got " + firstMessageNudge.toMillis() + " ms");
		}
	}

	/**
	 * The defaults: CRC when asked, IRD and ORD 32, automatic MSS, 250 ms RNR grace, 10 s MPA
	 * timeout, keepalive on, {@value #DEFAULT_MAX_QUEUE_PAIRS} queue pairs, callers receiving,
	 * callers polling for
	 * {@value #DEFAULT_CALLER_SPIN_MICROS} µs (not at all on one processor), 10 s for the rest of
	 * an FPDU, as many I/O threads as processors, a silent peer nudged after
	 * {@value #DEFAULT_FIRST_MESSAGE_NUDGE_MILLIS} ms, I/O threads polling for
	 * {@value #DEFAULT_CALLER_SPIN_MICROS} µs before they sleep (not at all on one processor).
	 * @return the defaults
	 */
	public static SiwSettings defaults() {
		return from(RdmaProviderConfig.defaults());
	}

	/**
	 * Reads the settings from provider properties.
	 * @param config the properties
	 * @return the settings
	 * @throws IllegalArgumentException if a value is malformed or out of range
	 */
	public static SiwSettings from(RdmaProviderConfig config) {
		String crc = config.get(CRC).orElse("off").trim().toLowerCase(java.util.Locale.ROOT);
		CrcPolicy policy = switch (crc) {
			case "off", "false", "when-asked" -> CrcPolicy.OFF_UNLESS_ASKED;
			case "require", "required", "on", "true" -> CrcPolicy.REQUIRE;
			default -> throw new IllegalArgumentException(
					"Provider setting '" + CRC + "' must be 'off' or 'require' but is '" + crc + "'");
		};
		String keepAlive = config.get(KEEPALIVE).orElse("true").trim();
		String callerReceives = config.get(CALLER_RECEIVES).orElse("true").trim();
		if (!callerReceives.equalsIgnoreCase("true") && !callerReceives.equalsIgnoreCase("false")) {
			throw new IllegalArgumentException(
					"Provider setting '" + CALLER_RECEIVES + "' must be 'true' or 'false' but is '" + callerReceives + "'");
		}
		return new SiwSettings(policy, config.getInt(IRD, 32), config.getInt(ORD, 32), config.getInt(MSS, 0),
				Duration.ofMillis(config.getInt(RNR_GRACE_MILLIS, 250)),
				Duration.ofMillis(config.getInt(MPA_TIMEOUT_MILLIS, 10_000)), Boolean.parseBoolean(keepAlive),
				config.getInt(MAX_QUEUE_PAIRS, DEFAULT_MAX_QUEUE_PAIRS), Boolean.parseBoolean(callerReceives),
				Duration.ofNanos(config.getInt(CALLER_SPIN_MICROS, defaultCallerSpinMicros()) * 1000L),
				Duration.ofMillis(config.getInt(FPDU_TIMEOUT_MILLIS, DEFAULT_FPDU_TIMEOUT_MILLIS)),
				config.getInt(IO_THREADS, Math.min(MAX_IO_THREADS, Runtime.getRuntime().availableProcessors())),
				Duration.ofMillis(config.getInt(FIRST_MESSAGE_NUDGE_MILLIS, DEFAULT_FIRST_MESSAGE_NUDGE_MILLIS)),
				Duration.ofNanos(config.getInt(IO_POLL_MICROS, defaultCallerSpinMicros()) * 1000L));
	}

	/**
	 * The default poll, a caller's and an I/O thread's: none on one processor, where the poll
	 * would keep the peer (or this JVM's own server) from the CPU that produces the reply.
	 */
	private static int defaultCallerSpinMicros() {
		return (Runtime.getRuntime().availableProcessors() > 1) ? DEFAULT_CALLER_SPIN_MICROS : 0;
	}

}
