package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

import io.rpcrdma.verbs.siw.SiwWirePeer;

/**
 * Attack 6: RDMA Reads and Writes of STags the server never offered this connection, guessed
 * or seen elsewhere, each followed by a new connection: probing the server's memory and
 * churning connections. The server must refuse each access exactly like an STag that does not
 * exist (RFC 5040 §8.2, RFC 5042 §5.1) and end only that connection.
 */
final class UnofferedStags extends WireAttack {

	UnofferedStags(int threads) {
		super(Attacks.UNOFFERED_STAGS,
				"(6) RDMA Read Requests and RDMA Writes of STags never offered, a new connection after each",
				Evidence.DROPS, threads);
	}

	@Override
	void play(SiwWirePeer peer, int thread) throws IOException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int stag = random.nextInt();
		long address = random.nextLong() & ~0xFFFL;
		if (random.nextBoolean()) {
			peer.readRequest(stag, address, 4096);
		}
		else {
			peer.write(stag, address, new byte[64]);
		}
		this.attempts.increment();
		awaitDrop(peer);
	}

}
