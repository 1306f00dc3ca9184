package io.rpcrdma.server;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.transport.CcpMode;
import io.rpcrdma.transport.CreditBudget;
import io.rpcrdma.transport.ConnectionLimits;
import io.rpcrdma.transport.InboundCall;
import io.rpcrdma.transport.ReplySender;
import io.rpcrdma.transport.RpcRdmaServer;
import io.rpcrdma.transport.RpcRdmaServerConnection;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * An ONC RPC server over RPC-over-RDMA: an {@link RpcRdmaServer} listening for connections
 * joined to an {@link RpcDispatcher} running the procedures of a {@link ProgramRegistry}.
 *
 * <p>Each {@link InboundCall} is dispatched with the peer's {@link RequesterAddress} (address
 * and port) as the client key: the duplicate request cache recognises a retransmission that
 * arrives on a new connection by its host, and gives each address with port its own entries
 * and share, so another process on the same host can neither make a call run twice nor evict
 * its replies. Handlers see what the requester offered for the reply (a
 * {@link ChunkOffer} in their {@link ServerCall}); replies are encoded into a heap buffer
 * sized by {@link #replyCapacity}, reused from call to call ({@link ReplyBufferPool}), and
 * conveyed by the transport (inline, with the
 * DDP-eligible items the handler marked in the requester's Write chunks, or in the Reply
 * chunk); calls the dispatcher drops give the requester's credit back
 * through {@link ReplySender#drop()}. The call's message (owned by the RPC layer once the
 * transport hands it over) is kept referenced until the dispatch outcome completes; then the
 * server {@link ReplySender#release() releases} the call, so the transport may reuse its
 * context and message buffer for a later call.
 *
 * <p>{@link #shutdown(Duration)} stops accepting connections, lets running calls finish for
 * the grace period (new calls are dropped), then closes every connection; the clients' pending
 * calls then fail with {@code io.rpcrdma.client.ConnectionLostException}.
 */
public final class RpcServer implements AutoCloseable {

	private static final Logger logger = System.getLogger(RpcServer.class.getName());

	/**
	 * The largest reply buffer a call gets, whatever chunks its requester offered: room for a
	 * 64 MiB bulk result with its reply header and a little more (the Write and Reply chunk
	 * capacities are counted in it).
	 */
	public static final int MAX_REPLY_BUFFER = (64 << 20) + (64 << 10);

	/**
	 * The most bytes of free reply buffers kept for reuse: two replies of the largest size, so
	 * that back-to-back bulk results do not allocate.
	 */
	static final long MAX_RETAINED_REPLY_BYTES = 2L * MAX_REPLY_BUFFER;

	private final Config config;

	private final ReplyBufferPool replyBuffers = new ReplyBufferPool(MAX_RETAINED_REPLY_BYTES);

	private final ServerExecutor handlers;


	/**
	 * The longest {@link #shutdown} waits, after closing the connections, for their flushed
	 * receives to come back to the memory pool.
	 */
	public static final Duration RELEASE_WAIT = Duration.ofSeconds(2);

	private final RpcDispatcher dispatcher;

	private final RpcRdmaServer transport;

	private final AtomicReference<CompletableFuture<InFlightTracker.ShutdownReport>> shutdown = new AtomicReference<>();

	/** Replies handed to the transport and not yet sent, so a shutdown lets them go out first. */
	private final UnsentReplies unsent = new UnsentReplies();

	private RpcServer(Config config, ProgramRegistry registry) {
		this.config = config;
		this.handlers = config.executor().create();
		DuplicateRequestCache cache = config.duplicateRequestCache()
				? new DuplicateRequestCache(config.drcEntriesPerClient(), config.drcEntries(), config.drcTtl())
				: null;
		if (config.security().rpcsecGss() != null && config.transport().inBandCcp() != CcpMode.DISABLED) {
			ProtectedConnectionConfiguration.registerIn(registry);
		}
		// A connection's calls beyond its share of the executor wait on it, each holding its
		// credit: as many as it may have outstanding (RFC 8166 §3.3.1), never refused for that.
		this.dispatcher = new RpcDispatcher(registry, this.handlers, cache, new InFlightTracker(), config.security(),
				config.executor().share(config.transport().creditsGranted()));
		try {
			// Calls are dispatched on the thread that received them (ARCHITECTURE.md,
			// "Threading": an inline call costs no hand-off beyond what the configured executor
			// needs). Dispatching never blocks: the header is decoded, the duplicate request
			// cache consulted, and the handler handed to its executor, which runs it right there
			// only when it is DIRECT, for handlers that never block; replies are posted without
			// waiting (a buffer that is not free fails the reply, it is not waited for).
			this.transport = RpcRdmaServer.listen(config.provider(), config.pool(), config.bindAddress(),
					ccpUnder(config.security(), config.transport()), new CreditBudget(config.effectiveCreditBudget(),
							config.transport().creditsGranted()),
					Runnable::run, this::onCall, config.backwardCredits(), config.connectionLimits());
		}
		catch (RuntimeException ex) {
			this.handlers.close();
			throw ex;
		}
	}

	/**
	 * Starts a server.
	 * @param config its settings
	 * @param registry the procedures it serves
	 * @return the listening server
	 */
	public static RpcServer start(Config config, ProgramRegistry registry) {
		return new RpcServer(Objects.requireNonNull(config, "config"), Objects.requireNonNull(registry, "registry"));
	}

	/**
	 * RFC 5666 §11: "The Connection Configuration Protocol, when used, MUST be protected by an
	 * appropriate RPC security flavor." The transport answers CCP itself, under AUTH_NONE, so a
	 * server with a security policy does not: a CONF_RDMA call then reaches the dispatcher like
	 * any other. With RPCSEC_GSS, {@link ProtectedConnectionConfiguration} answers it under a
	 * context (and refuses weaker flavors with AUTH_TOOWEAK); without, the policy refuses it or
	 * finds no program 100417. A connection not configured keeps its version's defaults or what
	 * RFC 8797 private data said. Only a server that admits every call answers unprotected CCP.
	 * @param security the server's policy
	 * @param transport the transport settings asked for
	 * @return the transport settings to listen with
	 */
	static TransportConfig ccpUnder(SecurityPolicy security, TransportConfig transport) {
		if (security.isPermitAll() || transport.inBandCcp() == CcpMode.DISABLED) {
			return transport;
		}
		logger.log(Level.DEBUG, "In-band CCP is not answered: the server has a security policy (RFC 5666 §11)");
		return transport.withConnectionConfiguration(transport.privateData(), CcpMode.DISABLED, transport.ccpTimeout());
	}

	/**
	 * The client key of a peer: its {@link RequesterAddress}, address and port.
	 * @param peer the peer's socket address
	 * @return the key
	 */
	public static Object clientKey(InetSocketAddress peer) {
		return RequesterAddress.of(peer);
	}

	private void onCall(InboundCall call, ReplySender sender) {
		InetSocketAddress peer = sender.peerAddress();
		Object key = (peer != null) ? clientKey(peer) : "unknown";
		ByteBuffer message = call.message();
		int capacity = replyCapacity(this.config.transport().inlineThreshold(call.version()), call,
				this.config.pool().largestBufferSize(BufferRole.LOCAL_BULK));
		// A call that offered no chunk, the common small call, shares its offer.
		ChunkOffer offer = (call.writeChunkCapacities().isEmpty() && call.replyChunkCapacity() == 0
				&& call.readChunks() == 0 && call.traceContext() == null) ? ChunkOffer.nothing(call.version())
						: new ChunkOffer(call.version(), call.writeChunkCapacities(), call.replyChunkCapacity(),
								call.readChunks(), call.traceContext());
		TransportCall exchange = new TransportCall(sender, message, capacity, this.replyBuffers, this.unsent);
		CompletableFuture<DispatchOutcome> outcome;
		try {
			outcome = this.dispatcher.dispatch(message, call.padding(), key, offer, exchange, exchange);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Dispatching a call from " + key + " failed", ex);
			sender.drop();
			sender.release();
			return;
		}
		if (outcome.isDone() && !outcome.isCompletedExceptionally()) {
			// Finished already (a handler on the calling thread): no dependent stage.
			exchange.accept(outcome.join(), null);
		}
		else {
			outcome.whenComplete(exchange);
		}
	}

	/**
	 * How large a reply buffer a call gets: room for what may leave inline or by Reply chunk,
	 * plus each offered Write chunk, because a result that goes by Write chunk is written to
	 * the reply buffer first (RFC 8166 §3.4.6: only its length word stays in the reply). The
	 * requester's capacities are bounded by what the transport could place (the largest local
	 * bulk buffer each) and the total by {@link #MAX_REPLY_BUFFER}, so a small call cannot make
	 * the server allocate without limit.
	 * @param inlineThreshold the inline threshold of the call's version
	 * @param call the call
	 * @param largestChunk the largest local bulk buffer, the most one chunk can carry
	 * @return the buffer size in bytes
	 */
	static int replyCapacity(int inlineThreshold, InboundCall call, int largestChunk) {
		long total = Math.max(inlineThreshold, Math.min(call.replyChunkCapacity(), largestChunk));
		List<Long> writeChunks = call.writeChunkCapacities();
		for (int i = 0; i < writeChunks.size(); i++) {
			long capacity = writeChunks.get(i);
			// The item's XDR padding stays in the reply buffer too.
			total += Math.min(capacity, largestChunk) + 4;
		}
		return (int) Math.min(total, Math.max(inlineThreshold, MAX_REPLY_BUFFER));
	}

	/** @return where clients connect (the bound port when the configuration asked for port 0) */
	public InetSocketAddress localAddress() {
		return this.transport.localAddress();
	}

	/** @return the listening transport, for its connections and their {@code TransportStats} */
	public RpcRdmaServer transport() {
		return this.transport;
	}

	/**
	 * @return the live connections, for health and management output (read their state; the
	 * server owns them)
	 */
	public List<RpcRdmaServerConnection> connections() {
		return this.transport.connections();
	}

	/** @return the credits all connections share (RFC 8166 §3.3.1) */
	public CreditBudget creditBudget() {
		return this.transport.budget();
	}

	/** @return what every connection conveyed so far, closed ones included */
	public TransportStats transportStats() {
		return this.transport.stats();
	}

	/** @return the dispatcher, for its statistics and in-flight count */
	public RpcDispatcher dispatcher() {
		return this.dispatcher;
	}

	/**
	 * Shuts down gracefully: stops accepting connections, waits up to {@code grace} for running
	 * calls (calls arriving meanwhile are dropped), then closes every connection and the
	 * executors, and completes once the connections have given their buffers back to the
	 * memory pool (at most {@link #RELEASE_WAIT} later). Idempotent.
	 * @param grace how long running calls may take
	 * @return completes with the report of calls still running when the grace period ended
	 */
	public CompletableFuture<InFlightTracker.ShutdownReport> shutdown(Duration grace) {
		CompletableFuture<InFlightTracker.ShutdownReport> done = new CompletableFuture<>();
		if (!this.shutdown.compareAndSet(null, done)) {
			return this.shutdown.get();
		}
		this.transport.stopListening();
		this.dispatcher.shutdown(grace).thenCompose((report) -> {
			// Every reply of a finished call was handed to the transport before the call left
			// the in-flight count; let those go out before the connections close.
			Duration limit = this.config.transport().doneTimeout().plusSeconds(1);
			return this.unsent.drained()
				.handle((ignored, error) -> report)
				.completeOnTimeout(report, limit.toMillis(), TimeUnit.MILLISECONDS);
		}).whenComplete((report, error) -> {
			this.transport.close();
			this.handlers.close();
			// The closed connections' flushed receives go back to the memory pool before the
			// server reports itself down, so a pool closed right after finds them all back;
			// bounded, for a provider that would never flush.
			this.transport.released()
				.completeOnTimeout(null, RELEASE_WAIT.toMillis(), TimeUnit.MILLISECONDS)
				.whenComplete((released, never) -> {
					if (error != null) {
						done.completeExceptionally(error);
					}
					else {
						done.complete(report);
					}
				});
		});
		return done;
	}

	/** Shuts down with the configured grace period and waits for it. */
	@Override
	public void close() {
		shutdown(this.config.gracePeriod()).join();
	}

	/** Which {@link ServerExecutor} runs the handlers. */
	public enum ExecutorKind {

		/** On the transport's receive thread, without a hand-off: handlers that never block. */
		DIRECT,
		/** A bounded pool of platform threads. */
		BOUNDED_POOL,
		/** Virtual threads on Java 21+, a bounded pool on Java 17. */
		VIRTUAL_THREADS;

	}

	/**
	 * How the handlers' executor is built, and how much of it one connection may hold.
	 * @param kind the kind
	 * @param threads worker threads (or the concurrent call bound for virtual threads)
	 * @param queueCapacity calls that may wait for a worker
	 * @param perConnection the most calls of one connection queued or running in the executor
	 * at once ({@link ExecutorShare}); its further calls wait on the connection, keeping their
	 * credits. 0 for the default: {@code threads} for a bounded pool (one connection may keep
	 * every worker busy but never fill the queue, so another connection's call is next), half
	 * of {@code threads} for virtual threads (at least 1). Unused by {@link ExecutorKind#DIRECT}.
	 */
	public record ExecutorSpec(ExecutorKind kind, int threads, int queueCapacity, int perConnection) {

		/** Validates. */
		public ExecutorSpec {
			Objects.requireNonNull(kind, "kind");
			if (threads < 1 || queueCapacity < 0) {
				throw new IllegalArgumentException("threads must be at least 1 and queueCapacity not negative");
			}
			if (perConnection < 0) {
				throw new IllegalArgumentException("perConnection must be 0 (the default) or at least 1 call, not "
						+ perConnection);
			}
		}

		/**
		 * An executor whose share per connection is the default.
		 * @param kind the kind
		 * @param threads worker threads (or the concurrent call bound for virtual threads)
		 * @param queueCapacity calls that may wait for a worker
		 */
		public ExecutorSpec(ExecutorKind kind, int threads, int queueCapacity) {
			this(kind, threads, queueCapacity, 0);
		}

		ServerExecutor create() {
			return switch (this.kind) {
				case DIRECT -> ServerExecutor.direct();
				case BOUNDED_POOL -> ServerExecutor.boundedPool(this.threads, this.queueCapacity);
				case VIRTUAL_THREADS -> ServerExecutor.virtualThreads(this.threads);
			};
		}

		/**
		 * @param credits the most calls one connection has outstanding (its largest grant),
		 * the room its calls may wait in
		 * @return one connection's share of the executor, {@code null} for {@link ExecutorKind#DIRECT}
		 */
		ExecutorShare share(int credits) {
			if (this.kind == ExecutorKind.DIRECT) {
				return null;
			}
			int calls = (this.perConnection > 0) ? this.perConnection
					: (this.kind == ExecutorKind.VIRTUAL_THREADS) ? Math.max(1, this.threads / 2) : this.threads;
			return new ExecutorShare(calls, credits);
		}

	}

	/**
	 * An RPC server's settings.
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param bindAddress where to listen; port 0 picks a free port ({@link RpcServer#localAddress()})
	 * @param transport the RPC-over-RDMA settings
	 * @param executor how handlers run
	 * @param duplicateRequestCache whether non-idempotent calls go through a duplicate request cache
	 * @param drcEntriesPerClient the most entries per requester address with port
	 * @param drcEntries the most cached replies in all
	 * @param drcTtl how long a cached reply is kept
	 * @param gracePeriod how long {@link RpcServer#close()} lets running calls finish
	 * @param creditBudget the credits all connections share (RFC 8166 §3.3.1: a server bounds
	 * what its receive buffers can absorb); 0 for {@link #DEFAULT_CREDIT_BUDGET}, or
	 * {@link TransportConfig#creditsGranted()} if that is larger
	 * @param security which security flavors each procedure accepts (RFC 5531 §9 AUTH_ERROR for the rest)
	 * @param backwardCredits the most calls the server has outstanding to one connected client
	 * at once in the backward direction (RFC 8167; {@link ServerCall#backwardCalls()}), each a
	 * receive posted per connection for its reply; 0 (the default) for no backward direction
	 * @param connectionLimits how many connections one peer address, and all peers, hold at once
	 */
	public record Config(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress bindAddress,
			TransportConfig transport, ExecutorSpec executor, boolean duplicateRequestCache, int drcEntriesPerClient,
			int drcEntries, Duration drcTtl, Duration gracePeriod, int creditBudget, SecurityPolicy security,
			int backwardCredits, ConnectionLimits connectionLimits) {

		/** Validates. */
		public Config {
			Objects.requireNonNull(provider, "provider");
			Objects.requireNonNull(pool, "pool");
			Objects.requireNonNull(bindAddress, "bindAddress");
			Objects.requireNonNull(transport, "transport");
			Objects.requireNonNull(executor, "executor");
			Objects.requireNonNull(drcTtl, "drcTtl");
			Objects.requireNonNull(gracePeriod, "gracePeriod");
			Objects.requireNonNull(security, "security");
			Objects.requireNonNull(connectionLimits, "connectionLimits");
			if (duplicateRequestCache && (drcEntriesPerClient < 1 || drcEntries < drcEntriesPerClient)) {
				throw new IllegalArgumentException("DRC bounds must be positive with drcEntries >= drcEntriesPerClient");
			}
			if (creditBudget < 0 || (creditBudget > 0 && creditBudget < transport.creditsGranted())) {
				throw new IllegalArgumentException("creditBudget must be 0 (the default) or at least the " + transport.creditsGranted()
						+ " credits one connection is granted, got " + creditBudget);
			}
			if (backwardCredits < 0 || backwardCredits > RpcRdmaServerConnection.MAX_BACKWARD_CREDITS) {
				throw new IllegalArgumentException("backwardCredits must be within 0 (no backward direction) and "
						+ RpcRdmaServerConnection.MAX_BACKWARD_CREDITS + ", got " + backwardCredits);
			}
		}

		/**
		 * Settings with the default connection caps ({@link ConnectionLimits#DEFAULTS}).
		 * @param provider the RDMA provider
		 * @param pool registered memory
		 * @param bindAddress where to listen
		 * @param transport the RPC-over-RDMA settings
		 * @param executor how handlers run
		 * @param duplicateRequestCache whether to use a duplicate request cache
		 * @param drcEntriesPerClient the most entries per requester address with port
		 * @param drcEntries the most cached replies in all
		 * @param drcTtl how long a cached reply is kept
		 * @param gracePeriod how long running calls may finish at shutdown
		 * @param creditBudget the credits all connections share, 0 for the default
		 * @param security which security flavors each procedure accepts
		 * @param backwardCredits the most backward-direction calls outstanding to one client
		 */
		public Config(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress bindAddress,
				TransportConfig transport, ExecutorSpec executor, boolean duplicateRequestCache, int drcEntriesPerClient,
				int drcEntries, Duration drcTtl, Duration gracePeriod, int creditBudget, SecurityPolicy security,
				int backwardCredits) {
			this(provider, pool, bindAddress, transport, executor, duplicateRequestCache, drcEntriesPerClient, drcEntries,
					drcTtl, gracePeriod, creditBudget, security, backwardCredits, ConnectionLimits.DEFAULTS);
		}

		/**
		 * Settings without a backward direction.
		 * @param provider the RDMA provider
		 * @param pool registered memory
		 * @param bindAddress where to listen
		 * @param transport the RPC-over-RDMA settings
		 * @param executor how handlers run
		 * @param duplicateRequestCache whether to use a duplicate request cache
		 * @param drcEntriesPerClient the most entries per requester address with port
		 * @param drcEntries the most cached replies in all
		 * @param drcTtl how long a cached reply is kept
		 * @param gracePeriod how long running calls may finish at shutdown
		 * @param creditBudget the credits all connections share, 0 for the default
		 * @param security which security flavors each procedure accepts
		 */
		public Config(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress bindAddress,
				TransportConfig transport, ExecutorSpec executor, boolean duplicateRequestCache, int drcEntriesPerClient,
				int drcEntries, Duration drcTtl, Duration gracePeriod, int creditBudget, SecurityPolicy security) {
			this(provider, pool, bindAddress, transport, executor, duplicateRequestCache, drcEntriesPerClient, drcEntries,
					drcTtl, gracePeriod, creditBudget, security, 0);
		}

		/**
		 * @param value the most backward-direction calls outstanding to one client (RFC 8167),
		 * 0 for none
		 * @return a copy with it
		 */
		public Config withBackwardCredits(int value) {
			return new Config(this.provider, this.pool, this.bindAddress, this.transport, this.executor,
					this.duplicateRequestCache, this.drcEntriesPerClient, this.drcEntries, this.drcTtl, this.gracePeriod,
					this.creditBudget, this.security, value, this.connectionLimits);
		}

		/**
		 * Settings that accept every flavor the server can check ({@link SecurityPolicy#permitAll()}).
		 * @param provider the RDMA provider
		 * @param pool registered memory
		 * @param bindAddress where to listen
		 * @param transport the RPC-over-RDMA settings
		 * @param executor how handlers run
		 * @param duplicateRequestCache whether to use a duplicate request cache
		 * @param drcEntriesPerClient the most entries per requester address with port
		 * @param drcEntries the most cached replies in all
		 * @param drcTtl how long a cached reply is kept
		 * @param gracePeriod how long running calls may finish at shutdown
		 * @param creditBudget the credits all connections share, 0 for the default
		 */
		public Config(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress bindAddress,
				TransportConfig transport, ExecutorSpec executor, boolean duplicateRequestCache, int drcEntriesPerClient,
				int drcEntries, Duration drcTtl, Duration gracePeriod, int creditBudget) {
			this(provider, pool, bindAddress, transport, executor, duplicateRequestCache, drcEntriesPerClient, drcEntries,
					drcTtl, gracePeriod, creditBudget, SecurityPolicy.permitAll());
		}

		/**
		 * @param value which security flavors each procedure accepts
		 * @return a copy with it
		 */
		public Config withSecurity(SecurityPolicy value) {
			return new Config(this.provider, this.pool, this.bindAddress, this.transport, this.executor,
					this.duplicateRequestCache, this.drcEntriesPerClient, this.drcEntries, this.drcTtl, this.gracePeriod,
					this.creditBudget, value, this.backwardCredits, this.connectionLimits);
		}

		/**
		 * The default credit budget: 4,096 credits, 16 MiB of receives at the 4 KiB inline
		 * threshold, so 128 connections at the default grant of 32 and then fair shares (never
		 * below {@link io.rpcrdma.transport.CreditBudget#FLOOR}). Connections are charged
		 * from their first request on: an idle one holds the floor outside the budget.
		 */
		public static final int DEFAULT_CREDIT_BUDGET = 4096;

		/**
		 * Settings without an explicit credit budget.
		 * @param provider the RDMA provider
		 * @param pool registered memory
		 * @param bindAddress where to listen
		 * @param transport the RPC-over-RDMA settings
		 * @param executor how handlers run
		 * @param duplicateRequestCache whether to use a duplicate request cache
		 * @param drcEntriesPerClient the most entries per requester address with port
		 * @param drcEntries the most cached replies in all
		 * @param drcTtl how long a cached reply is kept
		 * @param gracePeriod how long running calls may finish at shutdown
		 */
		public Config(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress bindAddress,
				TransportConfig transport, ExecutorSpec executor, boolean duplicateRequestCache, int drcEntriesPerClient,
				int drcEntries, Duration drcTtl, Duration gracePeriod) {
			this(provider, pool, bindAddress, transport, executor, duplicateRequestCache, drcEntriesPerClient, drcEntries,
					drcTtl, gracePeriod, 0);
		}

		/** @return the credit budget in force: the configured one, or the default */
		public int effectiveCreditBudget() {
			return (this.creditBudget > 0) ? this.creditBudget
					: Math.max(DEFAULT_CREDIT_BUDGET, this.transport.creditsGranted());
		}

		/**
		 * @param value the credits all connections share, 0 for the default
		 * @return a copy with it
		 */
		public Config withCreditBudget(int value) {
			return new Config(this.provider, this.pool, this.bindAddress, this.transport, this.executor,
					this.duplicateRequestCache, this.drcEntriesPerClient, this.drcEntries, this.drcTtl, this.gracePeriod, value, this.security, this.backwardCredits, this.connectionLimits);
		}

		/**
		 * Defaults: default transport settings, a bounded pool of 4 threads queueing 64 calls,
		 * a DRC of 256 entries per client and 8192 in all kept 2 minutes, 10 seconds' grace.
		 * @param provider the RDMA provider
		 * @param pool registered memory
		 * @param bindAddress where to listen
		 * @return the settings
		 */
		public static Config defaults(RdmaProvider provider, RegisteredMemoryPool pool, InetSocketAddress bindAddress) {
			return new Config(provider, pool, bindAddress, TransportConfig.defaults(),
					new ExecutorSpec(ExecutorKind.BOUNDED_POOL, 4, 64), true, 256, 8192, Duration.ofMinutes(2),
					Duration.ofSeconds(10), 0);
		}

		/**
		 * @param value the transport settings
		 * @return a copy with them
		 */
		public Config withTransport(TransportConfig value) {
			return new Config(this.provider, this.pool, this.bindAddress, value, this.executor,
					this.duplicateRequestCache, this.drcEntriesPerClient, this.drcEntries, this.drcTtl, this.gracePeriod, this.creditBudget, this.security, this.backwardCredits, this.connectionLimits);
		}

		/**
		 * @param value how handlers run
		 * @return a copy with it
		 */
		public Config withExecutor(ExecutorSpec value) {
			return new Config(this.provider, this.pool, this.bindAddress, this.transport, value,
					this.duplicateRequestCache, this.drcEntriesPerClient, this.drcEntries, this.drcTtl, this.gracePeriod, this.creditBudget, this.security, this.backwardCredits, this.connectionLimits);
		}

		/**
		 * @param enabled whether to use a DRC
		 * @param perClient entries per requester address with port (each connection's share)
		 * @param total entries in all
		 * @param ttl how long entries live
		 * @return a copy with these DRC settings
		 */
		public Config withDuplicateRequestCache(boolean enabled, int perClient, int total, Duration ttl) {
			return new Config(this.provider, this.pool, this.bindAddress, this.transport, this.executor, enabled,
					perClient, total, ttl, this.gracePeriod, this.creditBudget, this.security, this.backwardCredits, this.connectionLimits);
		}

		/**
		 * @param value how many connections one peer address, and all peers, hold at once
		 * @return a copy with it
		 */
		public Config withConnectionLimits(ConnectionLimits value) {
			return new Config(this.provider, this.pool, this.bindAddress, this.transport, this.executor,
					this.duplicateRequestCache, this.drcEntriesPerClient, this.drcEntries, this.drcTtl, this.gracePeriod,
					this.creditBudget, this.security, this.backwardCredits, value);
		}

		/**
		 * @param value the grace period
		 * @return a copy with it
		 */
		public Config withGracePeriod(Duration value) {
			return new Config(this.provider, this.pool, this.bindAddress, this.transport, this.executor,
					this.duplicateRequestCache, this.drcEntriesPerClient, this.drcEntries, this.drcTtl, value, this.creditBudget, this.security, this.backwardCredits, this.connectionLimits);
		}

	}

}
