package io.rpcrdma.server;

import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every connection's {@link ConnectionShare} of one executor, and the hand-over from a call
 * that ends to its connection's next waiting one. A connection's share lives as long as the
 * connection (found by the connection object, so a call allocates nothing for it); calls
 * dispatched over no connection share by client key, and such a share is dropped once idle.
 * <p>
 * Linux's svcrdma gives each transport its own receive queue and lets a thread take at most
 * one request of a transport before the transport goes to the back of the ready list
 * ({@code svc_xprt_enqueue}); here the executor's queue is shared, so fairness comes from
 * bounding each connection's part of it instead.
 */
final class ConnectionShares {

	private static final System.Logger logger = System.getLogger(RpcDispatcher.class.getName());

	private final ExecutorShare limits;

	private final ServerExecutor executor;

	private final ConcurrentHashMap<Object, ConnectionShare> byKey = new ConcurrentHashMap<>();

	/** Calls that waited on their connection for a place in the executor. */
	final LongAdder deferred = new LongAdder();

	ConnectionShares(ExecutorShare limits, ServerExecutor executor) {
		this.limits = limits;
		this.executor = executor;
	}

	/**
	 * Takes a place in the executor for a call, or a place in its connection's line.
	 * @param exchange the call; its share is set when it takes a place or waits for one
	 * @param sink its connection's sink ({@link ReplySink#connection()} names the connection)
	 * @param clientKey who sent it, for calls over no connection
	 * @return {@link ConnectionShare.Admission#RUN}: hand it to the executor (and call
	 * {@link #ended} if the executor refuses it); {@code WAIT}: it is handed over later;
	 * {@code FULL}: it was refused, answered as overloaded
	 */
	ConnectionShare.Admission admit(DispatchExchange exchange, ReplySink sink, Object clientKey) {
		Object connection = sink.connection();
		while (true) {
			ConnectionShare share = (connection != null) ? shareOf(connection, sink) : shareOf(clientKey);
			ConnectionShare.Admission admission = share.admit(exchange);
			if (admission == ConnectionShare.Admission.LEFT) {
				continue;
			}
			if (admission == ConnectionShare.Admission.FULL) {
				exchange.rejectOverloaded(share);
				return admission;
			}
			if (admission == ConnectionShare.Admission.WAIT) {
				this.deferred.increment();
			}
			return admission;
		}
	}

	private ConnectionShare shareOf(Object connection, ReplySink sink) {
		ConnectionShare share = this.byKey.get(connection);
		if (share != null) {
			return share;
		}
		CompletableFuture<Void> closed = sink.connectionClosed();
		ConnectionShare made = new ConnectionShare(connection, this.limits, closed == null);
		share = this.byKey.putIfAbsent(connection, made);
		if (share != null) {
			return share;
		}
		if (closed != null) {
			// Calls still waiting keep the share they hold and are handed over as before.
			closed.whenComplete((ignored, failure) -> this.byKey.remove(connection, made));
		}
		return made;
	}

	private ConnectionShare shareOf(Object clientKey) {
		return this.byKey.computeIfAbsent(clientKey, (key) -> new ConnectionShare(key, this.limits, true));
	}

	void remove(ConnectionShare share) {
		this.byKey.remove(share.key, share);
	}

	/**
	 * A call of the share's left the executor (its task ended, or the executor refused it):
	 * the connection's oldest waiting call takes its place, joining the back of the executor's
	 * queue; a waiting call the executor refuses is answered as overloaded, and the place goes
	 * to the next.
	 * @param share the connection's share
	 * @param inTask whether this runs at the end of the task that held the place, which then
	 * hands it over ({@link ServerExecutor#tryHandOver})
	 */
	void ended(ConnectionShare share, boolean inTask) {
		DispatchExchange next;
		while ((next = share.next(this)) != null) {
			boolean accepted;
			try {
				accepted = inTask ? this.executor.tryHandOver(next) : this.executor.tryExecute(next);
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "Executor " + this.executor.description() + " threw instead of refusing", ex);
				accepted = false;
			}
			if (accepted) {
				return;
			}
			next.rejectOverloaded();
		}
	}

	/** @return connections (or keys) holding a share now */
	int connections() {
		return this.byKey.size();
	}

	/** @return the limits each share has */
	ExecutorShare limits() {
		return this.limits;
	}

}
