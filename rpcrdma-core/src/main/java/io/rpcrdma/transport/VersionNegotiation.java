package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.protocol.RpcRdmaConstants;

/**
 * The requester's side of version negotiation (draft-cel-nfsv4-rpcrdma-version-two §5): calls
 * go in the version remembered for the responder, else the preferred one; an ERR_VERS moves
 * them to the highest version both sides support; the first non-error reply confirms the
 * version; and the answer is remembered in a {@link PeerVersionCache} for reconnects.
 */
final class VersionNegotiation {

	private final VersionRange supported;

	private final PeerVersionCache cache;

	private final InetSocketAddress remote;

	private volatile int version;

	private volatile boolean confirmed;

	/** Whether a message went out before any reply confirmed the version. */
	private volatile boolean unconfirmedSent;

	/**
	 * @param supported the versions this side speaks
	 * @param preferred the version to try first when none is remembered
	 * @param cache where responders' versions are remembered
	 * @param remote the responder
	 */
	VersionNegotiation(VersionRange supported, int preferred, PeerVersionCache cache, InetSocketAddress remote) {
		this.supported = supported;
		this.cache = cache;
		this.remote = remote;
		int remembered = cache.get(remote);
		this.version = supported.contains(remembered) && remembered != 0 ? remembered : preferred;
	}

	/** @return the version calls are sent in now */
	int version() {
		return this.version;
	}

	/** @return whether a reply has confirmed the version */
	boolean isConfirmed() {
		return this.confirmed;
	}

	/**
	 * A message is about to go out.
	 * @return the version it goes in
	 */
	int sending() {
		if (!this.confirmed) {
			this.unconfirmedSent = true;
		}
		return this.version;
	}

	/**
	 * The responder answered ERR_VERS with its range (RFC 8166 §4.3.1).
	 * @param theirs the responder's versions
	 * @param tried the version the refused message went in
	 * @return the highest version both sides support, now the one calls go in, or 0 if
	 * there is none; if it is {@code tried}, nothing changed and the refusal stands
	 */
	int afterErrVers(VersionRange theirs, int tried) {
		int chosen = 0;
		for (int v = this.supported.high(); v >= this.supported.low(); v--) {
			if (theirs.contains(v)) {
				chosen = v;
				break;
			}
		}
		if (chosen == 0 || chosen == tried) {
			return chosen;
		}
		this.version = chosen;
		this.cache.put(this.remote, chosen);
		return chosen;
	}

	/**
	 * A non-error reply came in a version: that version is the connection's from now on (§5).
	 * @param vers the reply's rdma_vers
	 */
	void confirm(int vers) {
		if (!this.confirmed || this.version != vers) {
			this.version = vers;
			this.confirmed = true;
			this.cache.put(this.remote, vers);
		}
	}

	/**
	 * The connection was lost. If a Version Two message went out and nothing confirmed it, the
	 * responder is remembered as Version One (draft §5.2: the first Version Two message was
	 * lost or dropped), so the reconnect does not loop.
	 */
	void connectionLost() {
		if (this.unconfirmedSent && !this.confirmed && this.version != RpcRdmaConstants.VERSION_1
				&& this.supported.contains(RpcRdmaConstants.VERSION_1)) {
			this.cache.put(this.remote, RpcRdmaConstants.VERSION_1);
		}
	}

}
