package io.rpcrdma.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

import io.rpcrdma.log.RefusalLog;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.verbs.ConnectionRequest;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Listens for RPC-over-RDMA requesters and runs a {@link RpcRdmaServerConnection} for each:
 * receives are posted before the accept, and the accept carries this side's RFC 8797
 * private data.
 */
public final class RpcRdmaServer implements AutoCloseable {

	private final RdmaProvider provider;

	private final RegisteredMemoryPool pool;

	private final TransportConfig config;

	private final CreditBudget budget;

	private final Executor executor;

	private final InboundCallHandler handler;

	/** What all connections' Read chunks hold together (RpcRdmaServerConnection#placementBudget). */
	private final FifoAdmission placements;

	private final List<RpcRdmaServerConnection> connections = new CopyOnWriteArrayList<>();

	/** Connections accepted whose buffers are not all back yet (live ones, and closed ones still flushing). */
	private final Set<RpcRdmaServerConnection> unreleased = ConcurrentHashMap.newKeySet();

	private final RdmaListener listener;

	private static final System.Logger logger = System.getLogger(RpcRdmaServer.class.getName());

	private final RefusalLog refusals = new RefusalLog(logger, RefusalLog.DEFAULT_INTERVAL);

	/** Refusals at a connection cap: logged apart, so that a flood of them does not hide the others. */
	private final RefusalLog capped = new RefusalLog(logger, RefusalLog.DEFAULT_INTERVAL);

	private final ConnectionSlots slots;

	/**
	 * Set by {@link #close()}, under {@link #unreleased}'s lock: a request still being accepted
	 * then is refused, or its connection closed once accepted.
	 */
	private volatile boolean closed;

	private final int backwardCredits;

	/** What closed connections conveyed, so the server's totals never go backwards. */
	private TransportStats retired = TransportStats.ZERO;

	private RpcRdmaServer(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address,
			TransportConfig config, CreditBudget budget, Executor executor, InboundCallHandler handler,
			int backwardCredits, ConnectionLimits limits) {
		// Checked before listening, so a bad value fails the start, not every connection.
		BackwardDirection.withBackwardReceives(config, backwardCredits);
		this.backwardCredits = backwardCredits;
		this.provider = provider;
		this.pool = pool;
		this.config = config;
		this.budget = budget;
		this.executor = executor;
		this.handler = handler;
		this.placements = RpcRdmaServerConnection.placementBudget(pool);
		this.slots = new ConnectionSlots(limits);
		this.listener = provider.listen(address, this::onRequest);
	}

	/**
	 * Starts listening.
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param address where to listen
	 * @param config the settings
	 * @param budget the credits all connections share
	 * @param executor where {@code handler} runs; a direct executor only for handlers that
	 * never block
	 * @param handler the RPC layer
	 * @return the server
	 */
	public static RpcRdmaServer listen(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address,
			TransportConfig config, CreditBudget budget, Executor executor, InboundCallHandler handler) {
		return listen(provider, pool, address, config, budget, executor, handler, 0);
	}

	/**
	 * Starts listening, with a backward direction on every connection (RFC 8167): the server
	 * may call the programs its requesters serve ({@link RpcRdmaServerConnection#backwardCalls()}).
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param address where to listen
	 * @param config the settings
	 * @param budget the credits all connections share
	 * @param executor where {@code handler} runs
	 * @param handler the RPC layer
	 * @param backwardCredits the most backward-direction calls one connection has outstanding
	 * (0 for no backward direction); each connection posts as many receives more
	 * @return the server
	 */
	public static RpcRdmaServer listen(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address,
			TransportConfig config, CreditBudget budget, Executor executor, InboundCallHandler handler,
			int backwardCredits) {
		return listen(provider, pool, address, config, budget, executor, handler, backwardCredits,
				ConnectionLimits.DEFAULTS);
	}

	/**
	 * Starts listening, with a backward direction and the given connection caps.
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param address where to listen
	 * @param config the settings
	 * @param budget the credits all connections share
	 * @param executor where {@code handler} runs
	 * @param handler the RPC layer
	 * @param backwardCredits the most backward-direction calls one connection has outstanding
	 * (0 for no backward direction)
	 * @param limits how many connections one peer address, and all peers, hold at once: a
	 * request beyond them is rejected before anything is made for it
	 * @return the server
	 */
	public static RpcRdmaServer listen(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress address,
			TransportConfig config, CreditBudget budget, Executor executor, InboundCallHandler handler,
			int backwardCredits, ConnectionLimits limits) {
		return new RpcRdmaServer(Objects.requireNonNull(provider), Objects.requireNonNull(pool),
				Objects.requireNonNull(address), Objects.requireNonNull(config), Objects.requireNonNull(budget),
				Objects.requireNonNull(executor), Objects.requireNonNull(handler), backwardCredits,
				Objects.requireNonNull(limits));
	}

	private void onRequest(ConnectionRequest request) {
		RpcRdmaServerConnection connection;
		Object peer = ConnectionSlots.peer(request.remoteAddress());
		synchronized (this.unreleased) {
			if (this.closed) {
				request.reject(PrivateData.EMPTY);
				return;
			}
			// The caps first: a request beyond them costs no queue pair, buffer or credit.
			ConnectionSlots.Refusal refusal = this.slots.take(peer);
			if (refusal != null) {
				capped(peer, refusal);
				request.reject(PrivateData.EMPTY);
				return;
			}
			CreditGrant grant = new CreditGrant(this.budget, this.config.creditsGranted());
			try {
				connection = new RpcRdmaServerConnection(this.provider, this.pool, this.config, grant,
						this.executor, this.handler, request.remoteAddress(), this.backwardCredits, this.placements);
			}
			catch (RuntimeException ex) {
				grant.release();
				this.slots.release(peer);
				// No queue pair or receive buffers left (the provider's or the memory pool's
				// limit): the requester learns it by the reject, the operator from the log.
				refused(request, ex);
				request.reject(PrivateData.EMPTY);
				return;
			}
			// Its receives are posted from here on: counted before close() can look, so a
			// shutdown racing this accept still waits for them to come back.
			this.unreleased.add(connection);
		}
		connection.releasedFuture().whenComplete((ignored, error) -> {
			this.unreleased.remove(connection);
			// Its queue pair and buffers are back: the slot is free for another connection.
			this.slots.release(peer);
		});
		connection.inlineSizes().acceptPeerPrivateData(request.privateData());
		try {
			RdmaConnection established = request.accept(connection.qp, connection.inlineSizes().localPrivateData(),
					connection::onConnectionEvent);
			connection.established(established);
			this.connections.add(connection);
			connection.closeFuture.whenComplete((ignored, error) -> retire(connection));
		}
		catch (RuntimeException ex) {
			connection.fail(new TransportClosedException("Accepting " + request.remoteAddress() + " failed: " + ex));
			return;
		}
		if (this.closed) {
			// close() ran while this was being accepted and may not have seen it.
			connection.close();
		}
	}

	private void refused(ConnectionRequest request, RuntimeException why) {
		this.refusals.refused((count) -> "Refused the connection from " + request.remoteAddress() + " (" + count
				+ " refused so far): " + why.getMessage());
	}

	private void capped(Object peer, ConnectionSlots.Refusal refusal) {
		ConnectionLimits limits = this.slots.limits();
		String from = (peer instanceof InetAddress address) ? address.getHostAddress() : String.valueOf(peer);
		this.capped.refused((count) -> (refusal == ConnectionSlots.Refusal.PEER_CAP)
				? "Refused a connection from " + from + ": that peer holds " + limits.perPeer()
						+ " connections, its cap (" + count
						+ " refused at a connection cap so far); raise rpcrdma.server.max-connections-per-peer if "
						+ "one host (or one NAT address) needs more"
				: "Refused a connection from " + from + ": the server holds "
						+ limits.total() + " connections, its cap (" + count
						+ " refused at a connection cap so far); raise rpcrdma.server.max-connections");
	}

	/**
	 * @return connections refused since the server started: for want of resources (queue
	 * pairs, receive buffers) or at a connection cap ({@link #refusedAtConnectionCaps()})
	 */
	public long refusedConnections() {
		return this.refusals.count() + this.capped.count();
	}

	/** @return connections refused since the server started because their peer or the server held its cap of connections */
	public long refusedAtConnectionCaps() {
		return this.capped.count();
	}

	/** @return the caps on connections held at once, per peer and in all */
	public ConnectionLimits connectionLimits() {
		return this.slots.limits();
	}

	/** @return connections holding a slot under the caps: live ones and closed ones not yet released */
	public int heldConnections() {
		return this.slots.held();
	}

	private void retire(RpcRdmaServerConnection connection) {
		synchronized (this.connections) {
			if (this.connections.remove(connection)) {
				this.retired = this.retired.plus(connection.stats());
			}
		}
	}

	/**
	 * What every connection accepted so far conveyed, closed ones included: monotonic, for
	 * metrics.
	 * @return the totals
	 */
	public TransportStats stats() {
		synchronized (this.connections) {
			TransportStats total = this.retired;
			for (RpcRdmaServerConnection connection : this.connections) {
				total = total.plus(connection.stats());
			}
			return total;
		}
	}

	/** @return where requesters connect */
	public InetSocketAddress localAddress() {
		return this.listener.localAddress();
	}

	/** @return the live connections */
	public List<RpcRdmaServerConnection> connections() {
		return List.copyOf(this.connections);
	}

	/** @return the shared credit budget */
	public CreditBudget budget() {
		return this.budget;
	}

	/** Stops accepting new connections; the established ones carry on. Idempotent. */
	public void stopListening() {
		this.listener.close();
	}

	/**
	 * @return completes when every connection accepted so far is closed and has given its
	 * buffers back ({@link RpcRdmaEndpoint#releasedFuture()}): after {@link #close()}, what a
	 * shutdown waits for before the memory pool may close
	 */
	public CompletableFuture<Void> released() {
		return CompletableFuture.allOf(this.unreleased.stream().map(RpcRdmaEndpoint::releasedFuture)
			.toArray(CompletableFuture[]::new));
	}

	/** Stops listening and disconnects every connection. */
	@Override
	public void close() {
		synchronized (this.unreleased) {
			this.closed = true;
		}
		this.listener.close();
		for (RpcRdmaServerConnection connection : this.connections) {
			connection.close();
		}
	}

}
