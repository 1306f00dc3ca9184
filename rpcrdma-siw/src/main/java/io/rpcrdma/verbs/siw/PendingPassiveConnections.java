package io.rpcrdma.verbs.siw;

import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.log.RefusalLog;

/**
 * The TCP connections a provider's listeners accepted that are not iWARP connections yet,
 * bounded. Each waits on one of the provider's I/O threads from the moment it is accepted,
 * for the initiator's MPA Request (RFC 5044 §7.1.1, §7.1.2: the responder speaks only after
 * it) and then for the handler's answer, but has no queue pair until the handler accepts. So
 * {@link SiwSettings#MAX_QUEUE_PAIRS}, which {@link SiwProvider#createQueuePair} enforces,
 * bounds established connections only; without this bound a peer opening TCP connections
 * that never send an MPA Request would hold a socket and its MPA buffer each, without end.
 * <p>
 * The bound is the same number: as many connections may be on their way in as may be
 * established, which is room for every queue pair to be reconnected at once. Established
 * connections are not counted here, because a full provider's server must still read the
 * MPA Request and reject it with an MPA Reply with R set, which the requester and the
 * server's refusal count see; closing the TCP connection unread would hide the reason.
 * A connection beyond the bound is closed by the listener at once, before it reads a
 * byte or starts a thread, and counted; a WARNING says so at most every 10 s.
 */
final class PendingPassiveConnections {

	private static final System.Logger logger = System.getLogger(SiwProvider.class.getName());

	private final int limit;

	private final AtomicInteger pending = new AtomicInteger();

	private final RefusalLog refused = new RefusalLog(logger, RefusalLog.DEFAULT_INTERVAL);

	/**
	 * @param limit the most connections on their way in at once
	 */
	PendingPassiveConnections(int limit) {
		this.limit = limit;
	}

	/**
	 * Takes a place for a connection just accepted; {@link #release()} gives it back.
	 * @return {@code false} if all places are taken
	 */
	boolean tryAdmit() {
		while (true) {
			int now = this.pending.get();
			if (now >= this.limit) {
				return false;
			}
			if (this.pending.compareAndSet(now, now + 1)) {
				return true;
			}
		}
	}

	/**
	 * Gives a place back: its connection was established, refused or dropped, and its thread
	 * no longer waits for the peer's MPA Request or the handler's answer.
	 */
	void release() {
		this.pending.decrementAndGet();
	}

	/**
	 * Counts a connection closed at once for want of a place, and says so now and then.
	 * @param from the peer, for the log
	 */
	void refused(SocketAddress from) {
		this.refused.refused((count) -> "Closed the TCP connection from " + from + " unread (" + count
				+ " closed so far): " + this.limit + " accepted connections are already "
				+ "waiting for their MPA Request or its answer, as many as " + SiwSettings.MAX_QUEUE_PAIRS + " = "
				+ this.limit + " allows. If these are real clients connecting at once, raise "
				+ SiwSettings.MAX_QUEUE_PAIRS + "; if they are peers that open TCP connections and send nothing, "
				+ "find them (the address above) or lower " + SiwSettings.MPA_TIMEOUT_MILLIS
				+ " so that they give their places up sooner");
	}

	/**
	 * @return the connections on their way in now
	 */
	int pending() {
		return this.pending.get();
	}

	/**
	 * @return the connections closed at once for want of a place so far
	 */
	long refusedCount() {
		return this.refused.count();
	}

}
