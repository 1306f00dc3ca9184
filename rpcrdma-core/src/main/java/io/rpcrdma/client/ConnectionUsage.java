package io.rpcrdma.client;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import io.rpcrdma.transport.CreditWindow;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.TransportStats;

/**
 * How much each open connection of an {@link RpcClientPool} is used: the calls given to it
 * and not yet finished, when it last carried one, and what its calls go through when the
 * pool's connections are protected. What the pool picks a connection by (the most free
 * credits) and finds idle connections to close by.
 * <p>
 * Not thread-safe: the pool holds its lock around every use but {@link #isProtected()}.
 */
final class ConnectionUsage {

	private final Map<RpcClient, Usage> usage = new IdentityHashMap<>();

	/** What connections no longer open conveyed, so the pool's totals never go backwards. */
	private TransportStats retired = TransportStats.ZERO;

	/** Makes what each connection's calls go through; {@code null} for nothing. Set once. */
	private volatile UnaryOperator<RpcCaller> protection;

	/**
	 * A connection opened: protected at once when the pool's connections are.
	 * @param client the connection
	 * @param now the clock's time, its first activity
	 */
	void opened(RpcClient client, long now) {
		Usage used = new Usage(now);
		UnaryOperator<RpcCaller> protecting = this.protection;
		if (protecting != null) {
			used.protect(client, protecting);
		}
		this.usage.put(client, used);
	}

	/**
	 * Protects every connection's calls from now on, those open included.
	 * @param open the open connections
	 * @param protecting makes a connection's protected caller
	 * @return {@code false} if the connections were protected already (nothing changes)
	 */
	boolean protectAll(List<RpcClient> open, UnaryOperator<RpcCaller> protecting) {
		if (this.protection != null) {
			return false;
		}
		this.protection = protecting;
		for (RpcClient client : open) {
			this.usage.get(client).protect(client, protecting);
		}
		return true;
	}

	/** @return whether the connections are protected; the one read a call makes without the lock */
	boolean isProtected() {
		return this.protection != null;
	}

	/**
	 * Undoes what protects each of {@code clients} (an RPCSEC_GSS destroy over its connection),
	 * all at once, each bounded by what it allows itself, then closes it.
	 * @return completes per protected connection once it is closed
	 */
	List<CompletableFuture<Void>> undoProtections(List<RpcClient> clients) {
		List<CompletableFuture<Void>> undone = new ArrayList<>();
		for (RpcClient client : clients) {
			RpcCaller front = front(client);
			if (front instanceof ConnectionProtection) {
				undone.add(ConnectionClosing.closeProtected(front, client));
			}
		}
		return undone;
	}

	/**
	 * Forgets a connection.
	 * @param client the connection, closed or about to be
	 * @return what its calls went through when protected, else {@code null}
	 */
	RpcCaller remove(RpcClient client) {
		Usage gone = this.usage.remove(client);
		return (gone != null) ? gone.front : null;
	}

	/** @return what protects {@code client}'s calls, or {@code null} if nothing does or it is gone */
	RpcCaller front(RpcClient client) {
		Usage used = this.usage.get(client);
		return (used != null) ? used.front : null;
	}

	/** A call is about to go on {@code client}. */
	void busy(RpcClient client) {
		Usage used = this.usage.get(client);
		if (used != null) {
			used.calls++;
		}
	}

	/** A call on {@code client} finished, well or not, at {@code now}. */
	void finished(RpcClient client, long now) {
		Usage used = this.usage.get(client);
		if (used != null) {
			used.calls--;
			used.lastActive = now;
		}
	}

	/**
	 * A connection's credits not yet used: by calls the transport has sent, or by calls the
	 * pool gave it that have not reached the transport yet (they wait for what protects the
	 * connection to create its context), whichever is more.
	 */
	long freeCredits(RpcClient client) {
		Usage used = this.usage.get(client);
		int given = (used != null) ? used.calls : 0;
		if (client.transport() instanceof RpcRdmaClientConnection connection) {
			CreditWindow credits = connection.credits();
			return (long) credits.limit() - Math.max(credits.outstanding(), given);
		}
		return -Math.max(client.pendingCalls(), given);
	}

	/**
	 * @param client an open connection
	 * @param callsPerConnection calls at once that crowd a connection
	 * @return whether {@code client} carries that many calls (given by the pool or outstanding
	 * in its transport) or has no credit left
	 */
	boolean crowded(RpcClient client, int callsPerConnection) {
		return carried(client) >= callsPerConnection || freeCredits(client) <= 0;
	}

	/**
	 * @param open the open connections
	 * @return the open one that carries the fewest calls among those with a credit free (the
	 * most free credits of equals, then the first), else the one with the most free credits;
	 * {@code null} if none is open. By calls carried rather than credits alone, so that a
	 * connection just opened, granted one credit until its first reply (RFC 8166 §3.3.1), takes
	 * the next call rather than one already carrying several. Allocates nothing: it runs for
	 * every call.
	 */
	RpcClient leastCrowded(List<RpcClient> open) {
		RpcClient best = null;
		boolean bestHasCredit = false;
		int bestCarried = Integer.MAX_VALUE;
		long bestFree = Long.MIN_VALUE;
		for (int i = 0; i < open.size(); i++) {
			RpcClient client = open.get(i);
			if (!client.isOpen()) {
				continue;
			}
			long free = freeCredits(client);
			boolean hasCredit = free > 0;
			int carried = carried(client);
			if (best == null || (hasCredit != bestHasCredit ? hasCredit
					: (hasCredit && carried != bestCarried) ? carried < bestCarried : free > bestFree)) {
				best = client;
				bestHasCredit = hasCredit;
				bestCarried = carried;
				bestFree = free;
			}
		}
		return best;
	}

	/** @return the calls {@code client} carries: given by the pool or outstanding in its transport */
	private int carried(RpcClient client) {
		Usage used = this.usage.get(client);
		return Math.max((used != null) ? used.calls : 0, client.pendingCalls());
	}

	/** {@code client} left the pool: what it conveyed stays in the totals. */
	void retire(RpcClient client) {
		this.retired = this.retired.plus(client.transport().stats());
	}

	/**
	 * @param open the open connections
	 * @return what every connection conveyed so far, those open and those retired
	 */
	TransportStats conveyed(List<RpcClient> open) {
		TransportStats total = this.retired;
		for (RpcClient client : open) {
			total = total.plus(client.transport().stats());
		}
		return total;
	}

	/**
	 * Takes the connections {@link #idleBeyond} finds out of {@code open} and forgets them.
	 * @param open the open connections, from which the idle ones are removed
	 * @param minimum how many stay open whatever their idleness
	 * @param now the clock's time
	 * @param idleNanos the idle timeout
	 * @param fronts receives, for each connection taken out, what its calls went through
	 * ({@code null} when nothing protected them), to close outside the pool's lock
	 * @return the connections taken out, to close
	 */
	List<RpcClient> evictIdle(List<RpcClient> open, int minimum, long now, long idleNanos, List<RpcCaller> fronts) {
		List<RpcClient> evicted = idleBeyond(open, minimum, now, idleNanos);
		for (RpcClient client : evicted) {
			open.remove(client);
			fronts.add(remove(client));
		}
		return evicted;
	}

	/**
	 * The connections to close for idleness: those above {@code minimum} that carry no call
	 * and have carried none for {@code idleNanos}, the longest idle first.
	 * @param open the open connections, each known here
	 * @param minimum how many stay open whatever their idleness
	 * @param now the clock's time
	 * @param idleNanos the idle timeout
	 * @return the connections to close, in the order chosen
	 */
	List<RpcClient> idleBeyond(List<RpcClient> open, int minimum, long now, long idleNanos) {
		List<RpcClient> candidates = new ArrayList<>(open);
		candidates.sort(Comparator.comparingLong((RpcClient c) -> this.usage.get(c).lastActive));
		List<RpcClient> idle = new ArrayList<>();
		int remaining = open.size();
		for (RpcClient client : candidates) {
			if (remaining <= minimum) {
				break;
			}
			Usage used = this.usage.get(client);
			if (used.calls == 0 && client.pendingCalls() == 0 && now - used.lastActive >= idleNanos) {
				idle.add(client);
				remaining--;
			}
		}
		return idle;
	}

	/** How much one open connection is used. */
	private static final class Usage {

		int calls;

		long lastActive;

		/** What the connection's calls go through, when the pool's connections are protected. */
		RpcCaller front;

		Usage(long now) {
			this.lastActive = now;
		}

		void protect(RpcClient client, UnaryOperator<RpcCaller> protection) {
			RpcCaller made = protection.apply(client);
			this.front = (made != null) ? made : client;
		}

	}

}
