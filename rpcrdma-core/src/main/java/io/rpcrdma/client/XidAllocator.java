package io.rpcrdma.client;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * Hands out transaction ids for one connection: starting at a random value (so a restarted
 * client does not repeat its predecessor's xids, which a server's duplicate request cache
 * would take for retransmissions, RFC 5531 §9), then counting up and wrapping at 2^32, and
 * skipping any xid still pending on the connection.
 * <p>
 * Thread-safe and lock-free: each xid is claimed from an atomic counter, so two threads never
 * receive the same value within one turn of the counter.
 */
public final class XidAllocator {

	private static final SecureRandom SEEDS = new SecureRandom();

	private final AtomicInteger next;

	private final IntPredicate pending;

	/**
	 * @param pending tells whether an xid is still awaiting its reply
	 */
	public XidAllocator(IntPredicate pending) {
		this(SEEDS.nextInt(), pending);
	}

	/**
	 * @param first the first xid to hand out
	 * @param pending tells whether an xid is still awaiting its reply
	 */
	public XidAllocator(int first, IntPredicate pending) {
		this.next = new AtomicInteger(first);
		this.pending = pending;
	}

	/**
	 * @return an xid not pending at the time of the call
	 * @throws IllegalStateException if every xid is pending, which bounded pending tables
	 * make impossible
	 */
	public int next() {
		for (long tries = 0; tries <= 0xffff_ffffL; tries++) {
			int xid = this.next.getAndIncrement();
			if (!this.pending.test(xid)) {
				return xid;
			}
		}
		throw new IllegalStateException("every one of the 2^32 xids is pending on this connection");
	}

}
