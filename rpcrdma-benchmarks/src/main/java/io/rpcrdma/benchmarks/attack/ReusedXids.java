package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.verbs.siw.SiwWirePeer;

/**
 * Attack 4: calls for a bulk result that offer no Write chunk, so that the server (which sends
 * reply data in Read chunks, RFC 5666 style) answers with a Read chunk of its own and keeps the
 * reply's registered buffer until RDMA_DONE (RFC 5666 §11); the attacker never reads it nor
 * sends RDMA_DONE, and sends the next call with the same XID. The defence: a reused XID of a
 * reply awaiting RDMA_DONE reclaims the earlier reply, so the buffers held stay one per XID.
 * <p>
 * The result is small: the server sizes a reply's buffer from what the requester offered
 * ({@code RpcServer.replyCapacity}), so a call that offers no chunk at all gets a buffer of the
 * inline threshold, and a larger result fails with a system error before the transport could
 * offer it by Read chunk. Each reply still holds a registered buffer of the smallest chunk
 * class (4 KiB) until RDMA_DONE.
 */
final class ReusedXids extends WireAttack {

	/** The result each call asks for: within the Version 1 inline threshold (1024 bytes) with its headers. */
	static final int RESULT = 512;

	ReusedXids(int threads) {
		super(Attacks.REUSED_XIDS, "(4) calls for " + RESULT
				+ "-byte bulk results without a Write chunk, answered by Read chunk, never RDMA_DONE, all one XID",
				Evidence.REPLIES, threads);
	}

	@Override
	void play(SiwWirePeer peer, int thread) throws IOException {
		int xid = ThreadLocalRandom.current().nextInt();
		while (!stopped()) {
			peer.send(CallMessages.getWithoutWriteChunk(xid, RESULT));
			this.attempts.increment();
			TransportHeader header = CallMessages.header(peer.nextMessage());
			if (header instanceof RdmaMsg msg && !msg.chunkLists().readList().isEmpty()) {
				// Only a reply whose result waits in a Read chunk is what the attack abuses.
				this.replies.increment();
			}
			else {
				error(new IllegalStateException("a reply without a Read chunk, so nothing awaits RDMA_DONE: " + header));
			}
		}
	}

}
