package io.rpcrdma.discovery.rpcbind;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Finds where a program version is served over RPC-over-RDMA by asking the rpcbind of its
 * host (RFC 5666 §10: "an RPC/RDMA-aware client can then resolve its desired service to a
 * mappable port, and proceed to connect").
 * <p>
 * The answer comes from RPCBPROC_DUMP filtered by program, version and netid, not from
 * GETADDR: rpcbind answers GETADDR for the netid of the transport the query arrived on
 * ({@code tcp}), whatever netid the query names, so over TCP it would either find nothing or
 * return the program's TCP address. {@code rdma} is preferred to {@code rdma6} when both are
 * registered; a wildcard address (0.0.0.0 or ::, a server bound to every interface) stands
 * for the host that was asked, as rpcbind's own GETADDR merges it.
 * <p>
 * Stateless and thread-safe; each resolution opens its own short connection.
 */
public final class RpcbindResolver {

	private final Duration timeout;

	/**
	 * @param timeout bounds the connect and the DUMP of each resolution
	 */
	public RpcbindResolver(Duration timeout) {
		this.timeout = Objects.requireNonNull(timeout, "timeout");
	}

	/** A resolver with {@link RpcbindClient#DEFAULT_TIMEOUT}. */
	public RpcbindResolver() {
		this(RpcbindClient.DEFAULT_TIMEOUT);
	}

	/**
	 * Resolves a program version on the host whose rpcbind listens at {@code rpcbind}.
	 * @param rpcbind the host's rpcbind, usually its port {@value RpcbindClient#PORT}
	 * @param program the program number
	 * @param version the program version
	 * @return where to connect over RPC-over-RDMA
	 * @throws ProgramNotRegisteredException if no {@code rdma}/{@code rdma6} mapping exists
	 * @throws RpcbindException if rpcbind cannot be reached or answers badly
	 */
	public InetSocketAddress resolve(InetSocketAddress rpcbind, int program, int version) {
		List<RpcbindMapping> all;
		try (RpcbindClient client = RpcbindClient.connect(rpcbind, this.timeout)) {
			all = client.dump();
		}
		return pick(rpcbind, program, version, all);
	}

	/**
	 * Chooses among a DUMP's mappings; separate from the call for the unit tests.
	 */
	static InetSocketAddress pick(InetSocketAddress rpcbind, int program, int version, List<RpcbindMapping> all) {
		for (RdmaNetid netid : RdmaNetid.values()) {
			Optional<RpcbindMapping> found = all.stream()
				.filter((m) -> m.program() == program && m.version() == version && m.netid().equals(netid.netid()))
				.findFirst();
			if (found.isPresent()) {
				UniversalAddress address;
				try {
					address = found.get().universalAddress();
				}
				catch (MalformedUniversalAddressException ex) {
					throw new RpcbindProtocolException(rpcbind, "DUMP", "the mapping " + found.get()
							+ " has no valid address: " + ex.getMessage(), ex);
				}
				if (address.isWildcard()) {
					return new InetSocketAddress(rpcbind.getAddress(), address.port());
				}
				return address.socketAddress();
			}
		}
		String others = all.stream()
			.filter((m) -> m.program() == program)
			.map((m) -> "version " + m.unsignedVersion() + " over " + m.netid())
			.distinct()
			.collect(Collectors.joining(", "));
		throw new ProgramNotRegisteredException(RpcbindClient.text(rpcbind), program, version,
				others.isEmpty() ? "it has no mapping of that program at all" : "it has only " + others);
	}

}
