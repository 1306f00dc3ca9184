package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

import io.rpcrdma.verbs.siw.SiwWirePeer;

/**
 * Attack 2: from several connections at once, calls whose large Read chunks the server pulls
 * with RDMA Reads the attacker never answers, so that the server's bulk memory stays pinned
 * under them. The defences: each connection holds at most its bulk share (64 MiB by default)
 * and a connection whose peer leaves the server's work unanswered for the operation timeout (30
 * s by default) is failed and its buffers reclaimed (RFC 8166 §8, RFC 5042 §5).
 */
final class UnansweredReadChunks extends WireAttack {

	/** Each call's Read chunk. */
	static final int CHUNK = 8 << 20;

	/** Calls each connection makes: eight of 8 MiB fill the default bulk share. */
	static final int CALLS = 8;

	UnansweredReadChunks(int connections) {
		super(connections);
	}

	@Override
	public String key() {
		return Attacks.UNANSWERED_READS;
	}

	@Override
	public String description() {
		return "(2) calls with 8 MiB Read chunks whose RDMA Reads are never answered, " + CALLS
				+ " per connection, several connections at once";
	}

	@Override
	public Evidence evidence() {
		return Evidence.DROPS;
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
		awaitDrop(peer);
	}

}
