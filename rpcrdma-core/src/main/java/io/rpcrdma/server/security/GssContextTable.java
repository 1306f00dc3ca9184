package io.rpcrdma.server.security;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.rpcrdma.log.Durations;

/**
 * The server's RPCSEC_GSS contexts, each bound to the connection that created it and, once
 * established, counted against its principal, within {@link GssContextLimits}:
 * <ul>
 * <li>a connection holds at most {@code maxPerConnection} contexts, in creation or
 * established, and a principal at most {@code maxPerPrincipal} established ones; a holder at
 * its limit gets a new one only in place of one of its own unused for {@code idleLimit}, and is
 * otherwise refused;</li>
 * <li>a context still in creation (RFC 2203 §5.2.2: its INIT or CONTINUE_INIT has not
 * completed the GSS exchange) is forgotten {@code creationTimeout} after its INIT came, and
 * with its connection;</li>
 * <li>when the table is full, the holder with the most contexts (a principal by its
 * established contexts, or a connection by those it has in creation, when it holds at least
 * two) gives up its least recently used; one that holds a single context loses it only once it
 * has been unused for {@code idleLimit}. So a peer that piles up contexts can take a slot only
 * from a peer holding as many, never from a client with its one context.</li>
 * </ul>
 * Every check and the change it allows happen under the table's lock, so concurrent INITs
 * cannot both take the last slot. Looking a context up by its handle, which every DATA call
 * does, takes no lock. Sessions given up are disposed of outside the lock: disposing of one
 * waits for a Kerberos step running on it, which must not hold up the table.
 * @param <V> what a context holds (the server's GSS session and sequence window)
 */
final class GssContextTable<V> {

	private static final String PROPERTIES = "rpcrdma.server.security.kerberos.contexts.";

	private final GssContextLimits limits;

	private final LongSupplier nanoClock;

	private final Consumer<? super V> discard;

	private final long creationNanos;

	private final long idleNanos;

	/** Every context by its number, read without the lock. */
	private final Map<Long, Entry<V>> byId = new ConcurrentHashMap<>();

	// Guarded by this:

	private final Map<Object, ConnectionShare<V>> connections = new HashMap<>();

	private final Map<String, PrincipalShare<V>> principals = new HashMap<>();

	/** Contexts in creation, oldest first: the next to expire is always the first. */
	private final Set<Entry<V>> inCreation = new LinkedHashSet<>();

	private long nextId = 1;

	private boolean fullWarned;

	/**
	 * @param limits how many, and how long
	 * @param nanoClock the time source for the timeouts, {@link System#nanoTime()} but in tests
	 * @param discard disposes of what a context held when it is removed
	 */
	GssContextTable(GssContextLimits limits, LongSupplier nanoClock, Consumer<? super V> discard) {
		this.limits = Objects.requireNonNull(limits, "limits");
		this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
		this.discard = Objects.requireNonNull(discard, "discard");
		this.creationNanos = saturatedNanos(limits.creationTimeout());
		this.idleNanos = saturatedNanos(limits.idleLimit());
	}

	/** @return the limits */
	GssContextLimits limits() {
		return this.limits;
	}

	/**
	 * Reserves a slot for a new context in creation (RPCSEC_GSS_INIT), before its GSS step:
	 * a refused INIT costs no Kerberos decryption.
	 * @param binding the connection it is bound to (or the client key, for calls over none)
	 * @param closed completes when that connection closes, releasing its contexts;
	 * {@code null} when it is not a connection
	 * @return the context in creation, without a value yet
	 * @throws GssContextRefusedException if the connection is at its limit, or the table is
	 * full and nothing may give way
	 */
	Entry<V> reserve(Object binding, CompletableFuture<Void> closed) {
		Objects.requireNonNull(binding, "binding");
		List<V> discarded = new ArrayList<>(0);
		Entry<V> entry;
		boolean register = false;
		try {
			synchronized (this) {
				long now = this.nanoClock.getAsLong();
				expireCreations(now, discarded);
				ConnectionShare<V> share = this.connections.get(binding);
				if (share != null && share.entries.size() >= this.limits.maxPerConnection()) {
					Entry<V> idle = leastRecentlyUsed(share.entries, now, true);
					if (idle == null) {
						boolean first = !share.warned;
						share.warned = true;
						throw new GssContextRefusedException(GssContextRefusedException.Limit.PER_CONNECTION,
								"the connection already holds " + share.entries.size()
										+ " RPCSEC_GSS contexts, the most one connection may (" + PROPERTIES
										+ "per-connection), none unused for " + Durations.written(this.limits.idleLimit())
										+ ": it must destroy contexts it no longer uses (RFC 2203 §5.4) before it"
										+ " creates more",
								first);
					}
					remove(idle, discarded);
				}
				if (this.byId.size() >= this.limits.maxContexts()) {
					makeRoom(now, discarded);
				}
				else {
					this.fullWarned = false;
				}
				if (share == null) {
					share = new ConnectionShare<>(binding, closed != null);
					this.connections.put(binding, share);
					register = closed != null;
				}
				entry = new Entry<>(this.nextId++, binding, share, now);
				share.entries.add(entry);
				share.inCreation++;
				this.inCreation.add(entry);
				this.byId.put(entry.id, entry);
			}
		}
		finally {
			discardAll(discarded);
		}
		if (register) {
			// Once per connection, not per context: a connection that makes and destroys
			// contexts all day adds nothing to its close future. Outside the lock, since a
			// connection closed already runs this at once.
			closed.whenComplete((ignored, failure) -> release(binding));
		}
		return entry;
	}

	/**
	 * Gives a context in creation its value (the GSS session its step runs on).
	 * @param entry the context
	 * @param value its value
	 * @return whether it is still held; if not, the caller disposes of the value
	 */
	synchronized boolean attach(Entry<V> entry, V value) {
		if (entry.removed) {
			return false;
		}
		entry.value = value;
		return true;
	}

	/**
	 * Makes a context in creation established, counted against its principal from now on.
	 * @param entry the context, whose GSS exchange just completed
	 * @param principal who it authenticated
	 * @return whether it is still held (it may have timed out, given way or gone with its
	 * connection while its step ran); if not, the caller refuses it
	 * @throws GssContextRefusedException if the principal is at its limit and none of its
	 * contexts may give way; the new context is removed
	 */
	boolean establish(Entry<V> entry, String principal) {
		Objects.requireNonNull(principal, "principal");
		List<V> discarded = new ArrayList<>(0);
		try {
			synchronized (this) {
				long now = this.nanoClock.getAsLong();
				if (entry.removed || entry.principal != null) {
					return false;
				}
				if (now - entry.createdNanos >= this.creationNanos) {
					remove(entry, discarded);
					return false;
				}
				PrincipalShare<V> share = this.principals.get(principal);
				if (share != null && share.entries.size() >= this.limits.maxPerPrincipal()) {
					Entry<V> idle = leastRecentlyUsed(share.entries, now, true);
					if (idle == null) {
						remove(entry, discarded);
						boolean first = !share.warned;
						share.warned = true;
						throw new GssContextRefusedException(GssContextRefusedException.Limit.PER_PRINCIPAL,
								principal + " already holds " + share.entries.size()
										+ " RPCSEC_GSS contexts, the most one principal may (" + PROPERTIES
										+ "per-principal), none unused for " + Durations.written(this.limits.idleLimit())
										+ ": its clients must destroy contexts they no longer use (RFC 2203 §5.4)"
										+ " before they create more",
								first);
					}
					remove(idle, discarded);
				}
				if (share == null) {
					share = new PrincipalShare<>(principal);
					this.principals.put(principal, share);
				}
				this.inCreation.remove(entry);
				entry.connection.inCreation--;
				share.entries.add(entry);
				entry.principalShare = share;
				entry.lastUsedNanos = now;
				entry.principal = principal;
				return true;
			}
		}
		finally {
			discardAll(discarded);
		}
	}

	/**
	 * @param id a context's number
	 * @return the context, or {@code null}; takes no lock
	 */
	Entry<V> get(long id) {
		return this.byId.get(id);
	}

	/**
	 * @param entry a context in creation
	 * @return whether its creation timeout has passed (it is gone, or goes at the next change)
	 */
	boolean creationExpired(Entry<V> entry) {
		return this.nanoClock.getAsLong() - entry.createdNanos >= this.creationNanos;
	}

	/**
	 * Notes a use of an established context, for {@code idleLimit} and for which of its
	 * holder's contexts gives way first; takes no lock.
	 * @param entry the context
	 */
	void touch(Entry<V> entry) {
		entry.lastUsedNanos = this.nanoClock.getAsLong();
	}

	/**
	 * Removes a context (RPCSEC_GSS_DESTROY, a failed GSS step, a context step the server's
	 * executor did not take) and disposes of its value.
	 * @param entry the context; nothing happens if it is gone already
	 */
	void remove(Entry<V> entry) {
		List<V> discarded = new ArrayList<>(1);
		try {
			synchronized (this) {
				remove(entry, discarded);
			}
		}
		finally {
			discardAll(discarded);
		}
	}

	/**
	 * Removes every context bound to a connection that closed, in creation or established.
	 * @param binding the connection
	 */
	void release(Object binding) {
		List<V> discarded = new ArrayList<>();
		try {
			synchronized (this) {
				ConnectionShare<V> share = this.connections.remove(binding);
				if (share != null) {
					for (Entry<V> entry : new ArrayList<>(share.entries)) {
						remove(entry, discarded);
					}
				}
			}
		}
		finally {
			discardAll(discarded);
		}
	}

	/** @return the contexts held, in creation or established, once those past their creation timeout are gone */
	int size() {
		List<V> discarded = new ArrayList<>(0);
		try {
			synchronized (this) {
				expireCreations(this.nanoClock.getAsLong(), discarded);
				return this.byId.size();
			}
		}
		finally {
			discardAll(discarded);
		}
	}

	/**
	 * @param binding a connection (or client key)
	 * @return the contexts bound to it, in creation or established
	 */
	synchronized int heldBy(Object binding) {
		ConnectionShare<V> share = this.connections.get(binding);
		return (share != null) ? share.entries.size() : 0;
	}

	/**
	 * @param principal a principal
	 * @return its established contexts
	 */
	synchronized int heldByPrincipal(String principal) {
		PrincipalShare<V> share = this.principals.get(principal);
		return (share != null) ? share.entries.size() : 0;
	}

	/** @return the contexts in creation */
	synchronized int inCreation() {
		return this.inCreation.size();
	}

	/**
	 * The table is full: the heaviest holder's least recently used context gives way, or failing
	 * one holding two or more, the least recently used context unused for {@code idleLimit}.
	 */
	private void makeRoom(long now, List<V> discarded) {
		// A principal's established contexts and a connection's contexts in creation are each a
		// holder; a connection's established contexts count against their principals, so many
		// users on one host are not taken for one user with many contexts.
		int most = 1;
		Collection<Entry<V>> heaviest = null;
		for (PrincipalShare<V> share : this.principals.values()) {
			if (share.entries.size() > most) {
				most = share.entries.size();
				heaviest = share.entries;
			}
		}
		boolean creating = false;
		for (ConnectionShare<V> share : this.connections.values()) {
			if (share.inCreation > most) {
				most = share.inCreation;
				heaviest = share.entries;
				creating = true;
			}
		}
		Entry<V> victim;
		if (heaviest == null) {
			victim = leastRecentlyUsed(this.byId.values(), now, true);
		}
		else if (creating) {
			victim = oldestInCreation(heaviest);
		}
		else {
			victim = leastRecentlyUsed(heaviest, now, false);
		}
		if (victim == null) {
			boolean first = !this.fullWarned;
			this.fullWarned = true;
			throw new GssContextRefusedException(GssContextRefusedException.Limit.TABLE_FULL,
					"the RPCSEC_GSS context table is full (" + this.byId.size() + " contexts, " + PROPERTIES
							+ "max): every holder has one context and each was used within " + Durations.written(this.limits.idleLimit())
							+ "; raise " + PROPERTIES + "max if this many clients are expected",
					first);
		}
		remove(victim, discarded);
	}

	/** Forgets the contexts whose creation timeout passed, oldest first. */
	private void expireCreations(long now, List<V> discarded) {
		while (!this.inCreation.isEmpty()) {
			Entry<V> oldest = this.inCreation.iterator().next();
			if (now - oldest.createdNanos < this.creationNanos) {
				return;
			}
			remove(oldest, discarded);
		}
	}

	/**
	 * @param idleOnly only those unused for {@code idleLimit}
	 * @return the established context among these used longest ago, or {@code null}
	 */
	private Entry<V> leastRecentlyUsed(Collection<Entry<V>> entries, long now, boolean idleOnly) {
		Entry<V> found = null;
		for (Entry<V> entry : entries) {
			if (entry.principal == null || (idleOnly && now - entry.lastUsedNanos < this.idleNanos)) {
				continue;
			}
			if (found == null || entry.lastUsedNanos - found.lastUsedNanos < 0) {
				found = entry;
			}
		}
		return found;
	}

	private static <V> Entry<V> oldestInCreation(Collection<Entry<V>> entries) {
		Entry<V> found = null;
		for (Entry<V> entry : entries) {
			if (entry.principal == null && (found == null || entry.createdNanos - found.createdNanos < 0)) {
				found = entry;
			}
		}
		return found;
	}

	private void remove(Entry<V> entry, List<V> discarded) {
		if (entry.removed) {
			return;
		}
		entry.removed = true;
		this.byId.remove(entry.id);
		ConnectionShare<V> connection = entry.connection;
		connection.entries.remove(entry);
		PrincipalShare<V> principal = entry.principalShare;
		if (principal != null) {
			principal.entries.remove(entry);
			if (principal.entries.isEmpty()) {
				this.principals.remove(principal.name, principal);
			}
		}
		else {
			this.inCreation.remove(entry);
			connection.inCreation--;
		}
		if (connection.entries.isEmpty() && !connection.closes) {
			// A connection's share stays until it closes (one close callback each); a client
			// key's goes with its last context.
			this.connections.remove(connection.binding, connection);
		}
		V value = entry.value;
		if (value != null) {
			discarded.add(value);
		}
	}

	private void discardAll(List<V> discarded) {
		for (V value : discarded) {
			this.discard.accept(value);
		}
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	/**
	 * One context: its number (the second half of its handle), its connection, and once
	 * established, its principal.
	 * @param <V> what it holds
	 */
	static final class Entry<V> {

		final long id;

		final Object binding;

		final long createdNanos;

		private final ConnectionShare<V> connection;

		/** Guarded by the table. */
		private PrincipalShare<V> principalShare;

		/** {@code null} while in creation. */
		private volatile String principal;

		private volatile V value;

		private volatile long lastUsedNanos;

		private volatile boolean removed;

		Entry(long id, Object binding, ConnectionShare<V> connection, long now) {
			this.id = id;
			this.binding = binding;
			this.connection = connection;
			this.createdNanos = now;
			this.lastUsedNanos = now;
		}

		/** @return who it authenticated, {@code null} while in creation */
		String principal() {
			return this.principal;
		}

		/** @return whether its GSS exchange completed */
		boolean established() {
			return this.principal != null;
		}

		/** @return its value, {@code null} before its step gave it one */
		V value() {
			return this.value;
		}

		/** @return whether it is no longer held */
		boolean removed() {
			return this.removed;
		}

	}

	/** What one connection (or client key) holds. */
	private static final class ConnectionShare<V> {

		final Object binding;

		/** Whether it is a connection, whose close releases it. */
		final boolean closes;

		final Set<Entry<V>> entries = new HashSet<>();

		int inCreation;

		boolean warned;

		ConnectionShare(Object binding, boolean closes) {
			this.binding = binding;
			this.closes = closes;
		}

	}

	/** The established contexts of one principal. */
	private static final class PrincipalShare<V> {

		final String name;

		final Set<Entry<V>> entries = new HashSet<>();

		boolean warned;

		PrincipalShare(String name) {
			this.name = name;
		}

	}

}
