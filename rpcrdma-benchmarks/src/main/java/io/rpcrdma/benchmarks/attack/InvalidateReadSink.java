package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.verbs.siw.SiwWirePeer;
import io.rpcrdma.verbs.siw.wire.ReadRequest;

/**
 * Attack 1: a call with a Read chunk makes the server send an RDMA Read Request, which shows
 * the STag of the server's own local memory the data would land in (its sink, RFC 5040 §4.4);
 * the attacker then sends a Send With Invalidate naming that STag (RFC 5040 §6.10), hoping to
 * break the server's memory for everyone. The server must refuse it and end only this
 * connection (RFC 5040 §8.2: local-only memory is never remotely invalidated).
 */
final class InvalidateReadSink extends WireAttack {

	private static final int LENGTH = 64 << 10;

	InvalidateReadSink(int threads) {
		super(Attacks.INVALIDATE_SINK,
				"(1) Send With Invalidate of the server's Read sink STag, learned from its Read Request", Evidence.DROPS,
				threads);
	}

	@Override
	void play(SiwWirePeer peer, int thread) throws IOException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int xid = random.nextInt();
		peer.send(CallMessages.putByReadChunk(xid, random.nextInt(), random.nextLong() & ~0xFFFL, LENGTH));
		ReadRequest read = peer.nextReadRequest();
		peer.sendWithInvalidate(CallMessages.echo(xid + 1, AuthNone.INSTANCE, new byte[8]), read.sinkStag());
		this.attempts.increment();
		awaitDrop(peer);
	}

}
