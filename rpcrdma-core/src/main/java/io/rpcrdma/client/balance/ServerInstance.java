package io.rpcrdma.client.balance;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;

/**
 * One server a balanced client may call: what a {@link InstanceSource} lists.
 *
 * @param id names the instance in statistics and exceptions, and keeps it the same instance
 * across refreshes of the set (a discovery service's instance id, or {@code host:port})
 * @param address where it listens
 * @param metadata what the source knows beyond the address (zone, version, weight), copied;
 * not used for balancing yet
 */
public record ServerInstance(String id, InetSocketAddress address, Map<String, String> metadata) {

	/** Validates and copies. */
	public ServerInstance {
		Objects.requireNonNull(id, "id");
		if (id.isBlank()) {
			throw new IllegalArgumentException("A server instance needs a non-blank id (for example host:port)");
		}
		Objects.requireNonNull(address, "address");
		metadata = Map.copyOf(Objects.requireNonNull(metadata, "metadata"));
	}

	/**
	 * An instance known only by its address, named {@code host:port}.
	 * @param address where it listens
	 * @return the instance
	 */
	public static ServerInstance of(InetSocketAddress address) {
		Objects.requireNonNull(address, "address");
		return new ServerInstance(address.getHostString() + ":" + address.getPort(), address, Map.of());
	}

	@Override
	public String toString() {
		String where = this.address.getHostString() + ":" + this.address.getPort();
		return this.id.equals(where) ? this.id : this.id + " (" + where + ")";
	}

}
