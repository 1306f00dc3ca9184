package io.rpcrdma.discovery.rpcbind;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A server's programs registered with rpcbind under the RPC-over-RDMA netid of its address
 * (RFC 5666 §10, §12: {@code rdma} for IPv4, {@code rdma6} for IPv6), removed again by
 * {@link #close()}.
 * <p>
 * Register once the server listens and close before it stops accepting, so that rpcbind
 * never sends a client to a port nobody serves. Each SET and each UNSET names the one netid,
 * so mappings of the same program on other transports (tcp, udp) are left alone.
 * <p>
 * A SET rpcbind refuses because it holds the same program, version and netid already is
 * looked up with DUMP: a mapping to this very address (left by an earlier run on the same
 * port that did not unregister) is taken over and removed at close like the others; one to
 * another address belongs to another server and fails the registration, after the
 * mappings already made are removed again.
 */
public final class RpcbindRegistration implements AutoCloseable {

	/** The owner string sent with each SET unless another is given. */
	public static final String DEFAULT_OWNER = "rpcrdma";

	private static final Logger logger = System.getLogger(RpcbindRegistration.class.getName());

	private final InetSocketAddress rpcbind;

	private final Duration timeout;

	private final List<RpcbindMapping> mappings;

	private boolean closed;

	private RpcbindRegistration(InetSocketAddress rpcbind, Duration timeout, List<RpcbindMapping> mappings) {
		this.rpcbind = rpcbind;
		this.timeout = timeout;
		this.mappings = List.copyOf(mappings);
	}

	/**
	 * Registers every program version at the server's address.
	 * @param rpcbind where rpcbind listens, usually {@link RpcbindClient#defaultAddress()}
	 * @param timeout bounds the connect and each call
	 * @param server the address the server is bound to; a wildcard address is registered as
	 * such, which rpcbind and {@link RpcbindResolver} read as "the host that was asked"
	 * @param programs what the server exports
	 * @param owner the owner string to send (rpcbind records its own idea of the owner for
	 * calls over TCP)
	 * @return the registration, to close at shutdown
	 * @throws RpcbindUnavailableException if rpcbind cannot be reached
	 * @throws RpcbindRegistrationException if rpcbind refuses a mapping
	 */
	public static RpcbindRegistration register(InetSocketAddress rpcbind, Duration timeout, InetSocketAddress server,
			Collection<ProgramVersion> programs, String owner) {
		Objects.requireNonNull(owner, "owner");
		UniversalAddress address = UniversalAddress.of(server);
		List<RpcbindMapping> wanted = new ArrayList<>();
		for (ProgramVersion program : new LinkedHashSet<>(programs)) {
			wanted.add(RpcbindMapping.rdma(program.program(), program.version(), address, owner));
		}
		List<RpcbindMapping> made = new ArrayList<>();
		try (RpcbindClient client = RpcbindClient.connect(rpcbind, timeout)) {
			for (RpcbindMapping mapping : wanted) {
				if (!client.set(mapping)) {
					adoptOrRefuse(client, mapping);
				}
				made.add(mapping);
			}
		}
		catch (RuntimeException ex) {
			new RpcbindRegistration(rpcbind, timeout, made).unsetAll(ex);
			throw ex;
		}
		logger.log(Level.INFO, () -> "Registered with rpcbind at " + RpcbindClient.text(rpcbind) + ": " + wanted);
		return new RpcbindRegistration(rpcbind, timeout, made);
	}

	private static void adoptOrRefuse(RpcbindClient client, RpcbindMapping mapping) {
		List<RpcbindMapping> held = new ArrayList<>();
		for (RpcbindMapping existing : client.dump()) {
			if (existing.program() == mapping.program() && existing.version() == mapping.version()
					&& existing.netid().equals(mapping.netid())) {
				held.add(existing);
			}
		}
		if (held.size() == 1 && held.get(0).address().equals(mapping.address())) {
			logger.log(Level.INFO, () -> "rpcbind at " + RpcbindClient.text(client.rpcbind())
					+ " already maps " + mapping + " to this address (an earlier run did not unregister); taking it over");
			return;
		}
		String holder = held.isEmpty() ? "it holds no such mapping, so it refuses this caller"
				+ " (rpcbind accepts SET only from its own host unless started with -i)"
				: "it maps it to " + held.get(0).address() + " already (owner '" + held.get(0).owner()
						+ "'): another server has it, or one that stopped without unregistering ('rpcinfo -d "
						+ mapping.unsignedProgram() + " " + mapping.unsignedVersion() + "' removes it)";
		throw new RpcbindRegistrationException("rpcbind at " + RpcbindClient.text(client.rpcbind())
				+ " refused to register " + mapping + ": " + holder);
	}

	/** @return the mappings registered */
	public List<RpcbindMapping> mappings() {
		return this.mappings;
	}

	/** @return the rpcbind they are registered with */
	public InetSocketAddress rpcbind() {
		return this.rpcbind;
	}

	/**
	 * Removes the mappings (RPCBPROC_UNSET of each program version under its netid).
	 * @throws RpcbindException if rpcbind cannot be reached or a call fails; the mappings it
	 * could not remove stay until rpcbind restarts or someone removes them
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		RuntimeException failure = unsetAll(null);
		if (failure != null) {
			throw failure;
		}
		logger.log(Level.INFO, () -> "Unregistered from rpcbind at " + RpcbindClient.text(this.rpcbind) + ": "
				+ this.mappings);
	}

	/**
	 * Unsets every mapping it can; failures are added to {@code primary} when there is one
	 * (registration failing half way), else returned.
	 */
	private RuntimeException unsetAll(RuntimeException primary) {
		if (this.mappings.isEmpty()) {
			return null;
		}
		RuntimeException failure = null;
		try (RpcbindClient client = RpcbindClient.connect(this.rpcbind, this.timeout)) {
			for (RpcbindMapping mapping : this.mappings) {
				// r_addr is ignored by UNSET; the netid keeps other transports' mappings.
				client.unset(new RpcbindMapping(mapping.program(), mapping.version(), mapping.netid(), "", mapping.owner()));
			}
		}
		catch (RpcbindException ex) {
			failure = ex;
		}
		if (failure != null && primary != null) {
			primary.addSuppressed(failure);
			return null;
		}
		return failure;
	}

}
