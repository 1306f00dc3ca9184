package io.rpcrdma.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * The connection slots of a server under its {@link ConnectionLimits}: a request takes one
 * before anything is made for its connection, and the connection gives it back once all it
 * held is released. Thread-safe.
 */
final class ConnectionSlots {

	/** Why a request got no slot. */
	enum Refusal {

		/** The peer address holds {@link ConnectionLimits#perPeer()} connections. */
		PEER_CAP,

		/** The server holds {@link ConnectionLimits#total()} connections. */
		TOTAL_CAP

	}

	/** The key of requesters whose address the provider could not tell. */
	static final String UNKNOWN_PEER = "an unknown address";

	private final ConnectionLimits limits;

	/** Connections per peer key, only peers holding at least one. */
	private final Map<Object, Integer> perPeer = new HashMap<>();

	private int total;

	ConnectionSlots(ConnectionLimits limits) {
		this.limits = limits;
	}

	/**
	 * The key a requester's connections are counted under: its IP address, the port left out
	 * (an unresolved name for providers whose addresses are names, as loopback's).
	 * @param remote the requester's address
	 * @return the key
	 */
	static Object peer(InetSocketAddress remote) {
		if (remote == null) {
			// A provider that could not read the requester's address (disni, when rdma_cm
			// gives none): such requests share one cap rather than escaping it.
			return UNKNOWN_PEER;
		}
		InetAddress address = remote.getAddress();
		return (address != null) ? address : remote.getHostString();
	}

	/**
	 * Takes a slot for a connection from {@code peer}.
	 * @param peer the requester's {@linkplain #peer key}
	 * @return null when taken, otherwise the cap that refused it
	 */
	synchronized Refusal take(Object peer) {
		if (this.total >= this.limits.total()) {
			return Refusal.TOTAL_CAP;
		}
		int held = this.perPeer.getOrDefault(peer, 0);
		if (held >= this.limits.perPeer()) {
			return Refusal.PEER_CAP;
		}
		this.perPeer.put(peer, held + 1);
		this.total++;
		return null;
	}

	/**
	 * Gives back a slot {@link #take} gave.
	 * @param peer the requester's key
	 */
	synchronized void release(Object peer) {
		Integer held = this.perPeer.get(peer);
		if (held == null) {
			throw new IllegalStateException("No connection slot is held for " + peer);
		}
		if (held == 1) {
			this.perPeer.remove(peer);
		}
		else {
			this.perPeer.put(peer, held - 1);
		}
		this.total--;
	}

	/** @return connections holding a slot */
	synchronized int held() {
		return this.total;
	}

	/** @return the caps */
	ConnectionLimits limits() {
		return this.limits;
	}

}
