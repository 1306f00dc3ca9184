package io.rpcrdma.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Who sent a call, as an {@link RpcServer} knows it: the requester's host and the port of the
 * connection the call came on.
 * <p>
 * The two parts serve two purposes in the {@link DuplicateRequestCache}. The host is what a
 * retransmission keeps when the requester reconnects (an RPC-over-RDMA requester retransmits
 * only on a new connection, and an RDMA connection manager gives each connection a new port),
 * so an exact repeat of a call is recognised by its host. The whole address, port included,
 * is the peer that owns the entries it made, as Linux's nfsd keys its cache by address and port
 * ({@code nfsd_cache_key_cmp}): another process on the same host is another peer, which can
 * neither displace those entries with calls of its own nor take their share of the cache.
 *
 * @param host the requester's {@link InetAddress}, or its host string when unresolved (the
 * loopback provider's namespaces)
 * @param port the requester's port, 0 when the transport has none
 */
public record RequesterAddress(Object host, int port) {

	/**
	 * @param host the requester's host
	 * @param port its port
	 */
	public RequesterAddress {
		Objects.requireNonNull(host, "host");
		if (port < 0 || port > 0xFFFF) {
			throw new IllegalArgumentException("A port is 0 to 65535, not " + port);
		}
	}

	/**
	 * @param peer a connection's remote socket address
	 * @return its requester address
	 */
	public static RequesterAddress of(InetSocketAddress peer) {
		InetAddress address = peer.getAddress();
		return new RequesterAddress((address != null) ? address : peer.getHostString(), peer.getPort());
	}

	/**
	 * The host part of a dispatcher's client key: of a {@link RequesterAddress} its host; any
	 * other key (a test's, or an embedder's own) stands for itself.
	 * @param clientKey the key a call was dispatched with
	 * @return what stays the same when that requester reconnects
	 */
	static Object hostOf(Object clientKey) {
		return (clientKey instanceof RequesterAddress requester) ? requester.host : clientKey;
	}

	/** @return the host's address (or name) without the port, as logs and observers show a client */
	public String hostString() {
		return (this.host instanceof InetAddress address) ? address.getHostAddress() : this.host.toString();
	}

	@Override
	public String toString() {
		String name = hostString();
		return (name.indexOf(':') >= 0) ? "[" + name + "]:" + this.port : name + ":" + this.port;
	}

}
