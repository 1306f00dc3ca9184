package io.rpcrdma.benchmarks.attack;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.MemoryPoolStats;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.DuplicateRequestCacheStats;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.PeerLimits;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.transport.TransportStats;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * The server under attack: an {@link RpcServer} over software iWARP on 127.0.0.1 with the
 * library's defaults (memory pool, executor, duplicate request cache, credits, peer limits),
 * serving {@link AttackedService}, except for what the attacks need:
 * <ul>
 * <li>reply data in Read chunks for requesters that offer no Write chunk (RFC 5666 §3.4), so
 * that replies await RDMA_DONE and the reused-XID attack ({@link ReusedXids}) has something to
 * reuse; honest clients always offer a Write chunk for a bulk result, so their replies do not
 * change;</li>
 * <li>RPCSEC_GSS with the test KDC's service key when one runs, beside AUTH_NONE and
 * AUTH_SYS, so that the context flood ({@link GssContextFlood}) can create contexts;</li>
 * <li>a shorter operation timeout where the caller asks for one (the smoke run only), so that a
 * peer leaving the server's RDMA Reads unanswered is dropped within the run.</li>
 * </ul>
 * Every phase of a run has a server of its own ({@link PhaseRunner}).
 */
final class AttackedServer implements AutoCloseable {

	/** The RPCSEC_GSS service's principal name, without the realm. */
	static final String GSS_PRINCIPAL = "rpcrdma/localhost";

	/** A local bulk size no phase leases (honest calls use 1 MiB, attacks 8 MiB and 4 KiB): 2 MiB. */
	static final int UNUSED_CLASS = 2 << 20;

	/** How the report names {@link #UNUSED_CLASS}. */
	static final String UNUSED_CLASS_LABEL = "2 MiB local bulk buffer";

	/** The GSS host-based service name clients ask for. */
	static final String GSS_SERVICE = "rpcrdma@localhost";

	private final RdmaProvider provider;

	private final RegisteredMemoryPool pool;

	private final RpcServer server;

	private final RpcSecGssServer rpcsecGss;

	/**
	 * What the server holds and has counted at one moment.
	 * @param connections connections open
	 * @param registeredBytes registered memory of the pool, leased or free
	 * @param leasedBytes registered memory leased (receives posted, chunks in flight)
	 * @param localBulkLeasedBytes of which local bulk buffers (Read chunks pulled, replies)
	 * @param transport the transport's counters, all connections
	 * @param drc the duplicate request cache's counters
	 * @param gssContexts RPCSEC_GSS contexts held, 0 without RPCSEC_GSS
	 */
	record Snapshot(int connections, long registeredBytes, long leasedBytes, long localBulkLeasedBytes, TransportStats transport,
			DuplicateRequestCacheStats drc, int gssContexts) {
	}

	/**
	 * @param operationTimeout the peer limits' operation timeout; {@code null} for the default
	 * @param rpcsecGss the RPCSEC_GSS server, or {@code null} when no KDC runs
	 */
	AttackedServer(Duration operationTimeout, RpcSecGssServer rpcsecGss) {
		this.rpcsecGss = rpcsecGss;
		this.provider = RdmaProviders.open("siw");
		RegisteredMemoryPool memory = null;
		try {
			memory = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
					MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
			ProgramRegistry registry = new ProgramRegistry();
			new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()), registry)
				.export(AttackedService.class, new AttackedServiceImpl());
			TransportConfig defaults = TransportConfig.defaults();
			TransportConfig transport = defaults.withFeatures(defaults.remoteInvalidate(), true,
					defaults.checkChunkLengthWords());
			if (operationTimeout != null) {
				transport = transport.withPeerLimits(PeerLimits.DEFAULTS.withOperationTimeout(operationTimeout));
			}
			SecurityPolicy security = (rpcsecGss == null) ? SecurityPolicy.permitAll()
					: SecurityPolicy.builder()
						.rpcsecGss(rpcsecGss)
						.byDefault(EnumSet.of(SecurityFlavor.NONE, SecurityFlavor.SYS, SecurityFlavor.KRB5,
								SecurityFlavor.KRB5I, SecurityFlavor.KRB5P))
						.build();
			this.server = RpcServer.start(RpcServer.Config
				.defaults(this.provider, memory, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
				.withTransport(transport)
				.withSecurity(security), registry);
			this.pool = memory;
		}
		catch (RuntimeException failed) {
			if (memory != null) {
				memory.close();
			}
			this.provider.close();
			throw failed;
		}
	}

	/** @return where clients and attackers connect */
	InetSocketAddress address() {
		return this.server.localAddress();
	}

	/** @return whether RPCSEC_GSS contexts can be created */
	boolean rpcsecGss() {
		return this.rpcsecGss != null;
	}

	/** @return what the server holds now */
	Snapshot snapshot() {
		long localBulk = this.pool.stats()
			.sizeClasses()
			.stream()
			.filter((sizeClass) -> sizeClass.role() == BufferRole.LOCAL_BULK)
			.mapToLong((sizeClass) -> sizeClass.leasedBytes())
			.sum();
		MemoryPoolStats memory = this.pool.stats();
		return new Snapshot(this.server.connections().size(), memory.registeredBytes(), memory.leasedBytes(), localBulk,
				this.server.transportStats(),
				this.server.dispatcher().duplicateRequestCacheStats().orElse(new DuplicateRequestCacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0)),
				(this.rpcsecGss != null) ? this.rpcsecGss.contexts() : 0);
	}

	/**
	 * Whether the server can still lease a buffer of a size class that neither the honest calls
	 * nor any attack uses ({@link #UNUSED_CLASS}): a free slab of another class does not count,
	 * so this fails when the registration budget is held by the slabs an attack made the pool
	 * register, even after the attack gave its buffers back.
	 * @return whether the lease succeeded (it is given back at once)
	 */
	boolean canLeaseUnusedClass() {
		RegisteredBuffer buffer = this.pool.tryLease(BufferRole.LOCAL_BULK, UNUSED_CLASS);
		if (buffer == null) {
			return false;
		}
		buffer.release();
		return true;
	}

	@Override
	public void close() {
		this.server.shutdown(Duration.ofSeconds(1)).join();
		this.pool.close();
		this.provider.close();
	}

}
