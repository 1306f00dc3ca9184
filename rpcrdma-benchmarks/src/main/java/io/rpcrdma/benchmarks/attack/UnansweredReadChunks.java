package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.rpcrdma.verbs.siw.SiwWirePeer;

/**
 * Attack 2: from several connections at once, calls whose large Read chunks the server pulls
 * with RDMA Reads the attacker never answers, so that the server's bulk memory stays pinned
 * under them. The defences: each connection holds at most its bulk share (64 MiB by default)
 * and a connection whose peer leaves the server's work unanswered for the operation timeout (30
 * s by default) is failed and its buffers reclaimed (RFC 8166 §8, RFC 5042 §5).
 * <p>
 * The attacker reads nothing from the server until the operation timeout has passed: reading
 * would make {@link SiwWirePeer} answer the server's zero-length fence Reads at once, ahead of
 * the unanswered ones, and the server would end the connection for Read Responses out of order
 * (RFC 5040 §5.5) long before its operation timeout. Silent, the attacker holds its memory until
 * the server gives up on it (or the phase ends), then looks how the server ended the connection
 * and connects again.
 */
final class UnansweredReadChunks extends WireAttack {

	/** Each call's Read chunk. */
	static final int CHUNK = 8 << 20;

	/** Calls each connection makes: eight of 8 MiB fill the default bulk share. */
	static final int CALLS = 8;

	/** How long the attacker stays silent: the server's operation timeout and a margin. */
	private final Duration silence;

	/**
	 * @param connections connections pinning memory at once, a thread each
	 * @param operationTimeout the server's operation timeout
	 */
	UnansweredReadChunks(int connections, Duration operationTimeout) {
		super(Attacks.UNANSWERED_READS,
				"(2) calls with 8 MiB Read chunks whose RDMA Reads are never answered (nothing read from the server for the"
						+ " operation timeout), " + CALLS + " per connection, several connections at once",
				Evidence.DROPS, connections);
		this.silence = operationTimeout.plusSeconds(2);
	}

	@Override
	void play(SiwWirePeer peer, int thread) throws IOException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int xid = random.nextInt();
		int stag = random.nextInt();
		for (int i = 0; i < CALLS; i++) {
			// Each call names its own 8 MiB of the attacker's "memory", which it never serves.
			peer.send(CallMessages.putByReadChunk(xid + i, stag, (long) i * CHUNK + 0x10_0000_0000L, CHUNK));
			this.attempts.increment();
		}
		if (holdSilently(this.silence)) {
			awaitDrop(peer);
		}
	}

}
