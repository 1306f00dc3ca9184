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
	 * @param open the open connections
	 * @return the open one with the most free credits, the first of equals; {@code null} if
	 * none is open. Allocates nothing: it runs for every call.
	 */
	RpcClient mostFreeCredits(List<RpcClient> open) {
		RpcClient best = null;
		long bestFree = Long.MIN_VALUE;
		for (int i = 0; i < open.size(); i++) {
			RpcClient client = open.get(i);
			long free = freeCredits(client);
			if (client.isOpen() && free > bestFree) {
				best = client;
				bestFree = free;
			}
		}
		return best;
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
