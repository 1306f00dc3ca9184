package io.rpcrdma.client;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.rpcrdma.transport.CreditWindow;
import io.rpcrdma.transport.RpcRdmaClientConnection;

/**
 * How much each open connection of an {@link RpcClientPool} is used: the calls given to it
 * and not yet finished, when it last carried one, and what its calls go through when the
 * pool's connections are protected. What the pool picks a connection by (the most free
 * credits) and finds idle connections to close by.
 * <p>
 * Not thread-safe: the pool holds its lock around every use.
 */
final class ConnectionUsage {

	private final Map<RpcClient, Usage> usage = new IdentityHashMap<>();

	/**
	 * A connection opened.
	 * @param client the connection
	 * @param now the clock's time, its first activity
	 * @param protection makes what its calls go through, or {@code null} for none
	 */
	void opened(RpcClient client, long now, UnaryOperator<RpcCaller> protection) {
		Usage used = new Usage(now);
		if (protection != null) {
			used.protect(client, protection);
		}
		this.usage.put(client, used);
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

	/** Protects an open connection's calls from now on. */
	void protect(RpcClient client, UnaryOperator<RpcCaller> protection) {
		this.usage.get(client).protect(client, protection);
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
