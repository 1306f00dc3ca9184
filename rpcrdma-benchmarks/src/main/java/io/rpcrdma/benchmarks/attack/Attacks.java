package io.rpcrdma.benchmarks.attack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.oncrpc.gss.KerberosCredentials;

/**
 * The attacks of issue #33, in the order of the report, and how hard each pushes.
 */
final class Attacks {

	static final String INVALIDATE_SINK = "invalidate-sink";

	static final String UNANSWERED_READS = "unanswered-reads";

	static final String GSS_CONTEXTS = "gss-contexts";

	static final String REUSED_XIDS = "reused-xids";

	static final String AUTH_SYS_FLOOD = "auth-sys-flood";

	static final String UNOFFERED_STAGS = "unoffered-stags";

	static final String STALLED_FRAMES = "stalled-frames";

	/** Every attack's key, in the order the phases run. */
	static final List<String> KEYS = List.of(INVALIDATE_SINK, UNANSWERED_READS, GSS_CONTEXTS, REUSED_XIDS,
			AUTH_SYS_FLOOD, UNOFFERED_STAGS, STALLED_FRAMES);

	/** Connections pinning bulk memory at once: six times the 64 MiB share is more than the 256 MiB pool. */
	static final int PINNING_CONNECTIONS = 6;

	/** "Processes" flooding AUTH_SYS calls, a connection each. */
	static final int FLOODING_PROCESSES = 4;

	/** Connections stalled at once in the middle of a frame header. */
	static final int STALLED_CONNECTIONS = 64;

	/** Threads of the attacks that churn connections or contexts. */
	static final int CHURNING_THREADS = 2;

	private Attacks() {
	}

	/**
	 * @param keys which attacks
	 * @param attacker the attacker's Kerberos login, or {@code null} when no KDC runs: the
	 * context flood is then left out
	 * @param operationTimeout the attacked server's operation timeout, which the silent
	 * attacker of {@link UnansweredReadChunks} waits out
	 * @return the attacks, in {@link #KEYS} order
	 */
	static List<Attack> create(List<String> keys, KerberosCredentials attacker, Duration operationTimeout) {
		List<Attack> attacks = new ArrayList<>();
		for (String key : KEYS) {
			if (!keys.contains(key)) {
				continue;
			}
			switch (key) {
				case INVALIDATE_SINK -> attacks.add(new InvalidateReadSink(CHURNING_THREADS));
				case UNANSWERED_READS -> attacks.add(new UnansweredReadChunks(PINNING_CONNECTIONS, operationTimeout));
				case GSS_CONTEXTS -> {
					if (attacker != null) {
						attacks.add(new GssContextFlood(CHURNING_THREADS, attacker));
					}
				}
				case REUSED_XIDS -> attacks.add(new ReusedXids(CHURNING_THREADS));
				case AUTH_SYS_FLOOD -> attacks.add(new AuthSysFlood(FLOODING_PROCESSES));
				case UNOFFERED_STAGS -> attacks.add(new UnofferedStags(CHURNING_THREADS));
				case STALLED_FRAMES -> attacks.add(new StalledFrames(STALLED_CONNECTIONS));
				default -> throw new IllegalArgumentException("No attack named " + key);
			}
		}
		return attacks;
	}

}
