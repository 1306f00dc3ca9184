package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.verbs.siw.SiwWirePeer;

/**
 * Attack 5: other processes on the honest clients' host (other source ports, the same
 * address) flood the server with AUTH_SYS calls of the non-idempotent echo, all drawing their
 * XIDs from one small range so that they collide with each other's: every call lands in the
 * duplicate request cache (RFC 5531 §9) under the same client key as the honest calls, each
 * collision with another credential evicts the entry it meets, and the flood takes the cache's
 * room. Each connection keeps {@link CallMessages#CREDITS} calls outstanding.
 */
final class AuthSysFlood extends WireAttack {

	/**
	 * How many XIDs the flood's calls share: they wrap around this range, well within the 256
	 * entries the cache keeps per client, so that most calls meet another process's entry.
	 */
	static final int XID_RANGE = 64;

	private final AtomicInteger nextXid = new AtomicInteger();

	AuthSysFlood(int processes) {
		super(Attacks.AUTH_SYS_FLOOD,
				"(5) AUTH_SYS calls flooding from other source ports, XIDs colliding within a range of " + XID_RANGE,
				Evidence.REPLIES, processes);
	}

	@Override
	void play(SiwWirePeer peer, int thread) throws IOException {
		// Another uid per process: a call colliding with another process's XID differs from it.
		AuthSys credential = AuthSys.of("attacker-" + thread, 1000 + thread, 1000);
		byte[] data = new byte[HonestLoad.SMALL];
		for (int i = 0; i < CallMessages.CREDITS; i++) {
			send(peer, credential, data);
		}
		while (!stopped()) {
			peer.nextMessage();
			this.replies.increment();
			send(peer, credential, data);
		}
	}

	private void send(SiwWirePeer peer, AuthSys credential, byte[] data) throws IOException {
		int xid = 0x5EED_0000 + Math.floorMod(this.nextXid.getAndIncrement(), XID_RANGE);
		peer.send(CallMessages.echo(xid, credential, data));
		this.attempts.increment();
	}

}
