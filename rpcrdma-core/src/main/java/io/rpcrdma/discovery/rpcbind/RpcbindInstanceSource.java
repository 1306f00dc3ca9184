package io.rpcrdma.discovery.rpcbind;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.client.balance.InstanceSource;
import io.rpcrdma.client.balance.ServerInstance;
import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * The servers of one program version, found through the rpcbind of each host (RFC 5666 §10):
 * one instance per host whose rpcbind maps the program version under {@code rdma} or
 * {@code rdma6}, at the address it maps.
 * <ul>
 * <li>Each {@link #instances()} asks every host again (a {@code BalancedCaller} does on its
 * first call and on each refresh), so a server restarted on another port is followed and one
 * that unregistered is dropped (it drains).</li>
 * <li>A host whose rpcbind cannot be reached keeps the instance last found there: rpcbind
 * being down says nothing about the server, which the caller's ejection and probes judge.</li>
 * <li>When a caller ejects an instance, the hosts are asked again on a thread of this source
 * and the subscribed callers refresh: a server that moved is found at its new port without
 * waiting for the next refresh.</li>
 * <li>With no host mapping the program, {@link #instances()} throws: a single host's
 * {@link ProgramNotRegisteredException} (naming the host, the program and what it has) or
 * {@link RpcbindUnavailableException}; for several hosts a {@link RpcbindLookupException}
 * carrying each host's reason.</li>
 * </ul>
 * An instance's id is {@code rpcbind://host:port/program/version}: the same across lookups,
 * so a server found at the same address keeps its pool and health.
 */
public final class RpcbindInstanceSource implements InstanceSource {

	private static final Logger logger = System.getLogger(RpcbindInstanceSource.class.getName());

	private final List<InetSocketAddress> rpcbinds;

	private final int program;

	private final int version;

	private final RpcbindResolver resolver;

	/** The instance last found at each host, kept while its rpcbind cannot be reached. */
	private final Map<InetSocketAddress, ServerInstance> lastFound = new ConcurrentHashMap<>();

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	/** Ejections not yet answered by a lookup; a lookup thread runs while it is not zero. */
	private final AtomicInteger pendingLookups = new AtomicInteger();

	/**
	 * @param rpcbinds each host's rpcbind, usually its port {@value RpcbindClient#PORT}; at
	 * least one
	 * @param program the program number
	 * @param version the program version
	 * @param resolver asks each rpcbind
	 */
	public RpcbindInstanceSource(List<InetSocketAddress> rpcbinds, int program, int version, RpcbindResolver resolver) {
		this.rpcbinds = List.copyOf(Objects.requireNonNull(rpcbinds, "rpcbinds"));
		if (this.rpcbinds.isEmpty()) {
			throw new IllegalArgumentException("An rpcbind instance source needs at least one rpcbind address");
		}
		if (this.rpcbinds.stream().distinct().count() != this.rpcbinds.size()) {
			throw new IllegalArgumentException("The rpcbind addresses " + this.rpcbinds + " list a host twice");
		}
		this.program = program;
		this.version = version;
		this.resolver = Objects.requireNonNull(resolver, "resolver");
	}

	/**
	 * @param rpcbind a host's rpcbind
	 * @param program the program number
	 * @param version the program version
	 * @return the id of the instance found through it
	 */
	public static String instanceId(InetSocketAddress rpcbind, int program, int version) {
		return "rpcbind://" + RpcbindClient.text(rpcbind) + "/" + Integer.toUnsignedString(program) + "/"
				+ Integer.toUnsignedString(version);
	}

	/** @return the hosts' rpcbinds asked */
	public List<InetSocketAddress> rpcbinds() {
		return this.rpcbinds;
	}

	/**
	 * Asks every host's rpcbind, one after the other, each bounded by the resolver's timeout.
	 * @return one instance per host that maps the program version (or did, when its rpcbind
	 * cannot be reached now), in the order of the hosts
	 * @throws RpcbindException when no host gives one
	 */
	@Override
	public List<ServerInstance> instances() {
		List<ServerInstance> found = new ArrayList<>(this.rpcbinds.size());
		List<RpcbindException> failures = new ArrayList<>();
		for (InetSocketAddress rpcbind : this.rpcbinds) {
			try {
				InetSocketAddress address = this.resolver.resolve(rpcbind, this.program, this.version);
				ServerInstance instance = new ServerInstance(instanceId(rpcbind, this.program, this.version), address,
						Map.of("rpcbind", RpcbindClient.text(rpcbind)));
				this.lastFound.put(rpcbind, instance);
				found.add(instance);
			}
			catch (ProgramNotRegisteredException ex) {
				// The server unregistered (it stopped) or never registered: not there.
				this.lastFound.remove(rpcbind);
				failures.add(ex);
			}
			catch (RpcbindException ex) {
				ServerInstance kept = this.lastFound.get(rpcbind);
				if (kept != null) {
					logger.log(Level.WARNING, () -> "Keeping " + kept + " as last found: " + ex.getMessage());
					found.add(kept);
				}
				failures.add(ex);
			}
		}
		if (found.isEmpty()) {
			if (failures.size() == 1) {
				throw failures.get(0);
			}
			throw new RpcbindLookupException(this.program, this.version, failures);
		}
		return found;
	}

	@Override
	public AutoCloseable subscribe(Runnable onChange) {
		Objects.requireNonNull(onChange, "onChange");
		this.listeners.add(onChange);
		return () -> this.listeners.remove(onChange);
	}

	/**
	 * Looks again on a thread of its own, coalescing ejections that come while it looks: the
	 * caller calls this on a call's completion path, and a lookup blocks on the network.
	 */
	@Override
	public void ejected(ServerInstance instance) {
		if (this.listeners.isEmpty()) {
			return;
		}
		if (this.pendingLookups.getAndIncrement() == 0) {
			Thread lookup = new Thread(this::lookAgain, "rpcrdma-rpcbind-lookup");
			lookup.setDaemon(true);
			lookup.start();
		}
	}

	private void lookAgain() {
		int seen;
		do {
			seen = this.pendingLookups.get();
			for (Runnable listener : this.listeners) {
				try {
					listener.run();
				}
				catch (RuntimeException ex) {
					// The caller keeps the instances it had and probes the ejected one.
					logger.log(Level.WARNING, () -> "Looking again for program " + ProgramNumberText.hex(this.program)
							+ " version " + Integer.toUnsignedString(this.version) + " after an ejection failed: "
							+ ex.getMessage());
				}
			}
		}
		while (!this.pendingLookups.compareAndSet(seen, 0));
	}

	@Override
	public String toString() {
		return "rpcbind " + this.rpcbinds.stream().map(RpcbindClient::text).toList() + " program "
				+ ProgramNumberText.hex(this.program) + " version " + Integer.toUnsignedString(this.version);
	}

}
