package io.rpcrdma.discovery.rpcbind;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * The rpcbind netids of RPC-over-RDMA (RFC 5666 §12): {@code rdma} when the transport uses
 * IPv4 addressing, {@code rdma6} for IPv6. Their universal addresses have the formats of
 * {@code tcp} and {@code tcp6} (RFC 5665 §5.2.3), since RDMA endpoints are named by IP
 * address and port (RFC 5666 §10).
 */
public enum RdmaNetid {

	/** NC_RDMA: IPv4 addressing. */
	RDMA("rdma"),

	/** NC_RDMA6: IPv6 addressing. */
	RDMA6("rdma6");

	private final String netid;

	RdmaNetid(String netid) {
		this.netid = netid;
	}

	/** @return the netid string as rpcbind carries it */
	public String netid() {
		return this.netid;
	}

	/**
	 * @param address where a server listens
	 * @return {@link #RDMA6} for an IPv6 address, {@link #RDMA} otherwise
	 */
	public static RdmaNetid of(InetAddress address) {
		return (address instanceof Inet6Address) ? RDMA6 : RDMA;
	}

	/**
	 * @param netid a netid rpcbind reported
	 * @return the RDMA netid it names, or empty for any other (tcp, udp, local...)
	 */
	public static Optional<RdmaNetid> lookup(String netid) {
		for (RdmaNetid candidate : values()) {
			if (candidate.netid.equals(netid)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	@Override
	public String toString() {
		return this.netid;
	}

}
