package io.rpcrdma.transport;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers which RPC-over-RDMA version each responder ended up speaking, so a reconnect
 * starts with it instead of trying a version the responder already refused with ERR_VERS
 * (draft-cel-nfsv4-rpcrdma-version-two §5). Bounded, least recently used out. Thread-safe.
 */
public final class PeerVersionCache {

	private static final PeerVersionCache SHARED = new PeerVersionCache(1024);

	private final Map<InetSocketAddress, Integer> versions;

	/**
	 * @param capacity how many responders to remember
	 */
	public PeerVersionCache(int capacity) {
		this.versions = new LinkedHashMap<>(16, 0.75f, true) {
			private static final long serialVersionUID = 1L;

			@Override
			protected boolean removeEldestEntry(Map.Entry<InetSocketAddress, Integer> eldest) {
				return size() > capacity;
			}
		};
	}

	/** @return the process-wide cache */
	public static PeerVersionCache shared() {
		return SHARED;
	}

	/**
	 * @param peer the responder's address
	 * @return the remembered version, or 0 if none
	 */
	public synchronized int get(InetSocketAddress peer) {
		Integer version = this.versions.get(peer);
		return (version != null) ? version : 0;
	}

	/**
	 * @param peer the responder's address
	 * @param version the version it speaks
	 */
	public synchronized void put(InetSocketAddress peer, int version) {
		this.versions.put(peer, version);
	}

	/** Forgets everything. */
	public synchronized void clear() {
		this.versions.clear();
	}

}
