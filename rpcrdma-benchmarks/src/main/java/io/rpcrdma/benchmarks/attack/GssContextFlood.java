package io.rpcrdma.benchmarks.attack;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.security.RpcSecGssClient;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Attack 3: a client with a valid Kerberos login (any user of the realm) creates RPCSEC_GSS
 * contexts (RFC 2203 §5.2) as fast as the server accepts them, and never destroys one, from a
 * few connections at once: the server's context table fills, and every context creation costs
 * the server a Kerberos AP-REQ check.
 */
final class GssContextFlood implements Attack {

	private static final Duration CONTEXT_TIMEOUT = Duration.ofSeconds(30);

	private final int threads;

	private final KerberosCredentials credentials;

	private final List<Thread> running = new ArrayList<>();

	private final LongAdder attempts = new LongAdder();

	private final LongAdder contexts = new LongAdder();

	private final LongAdder refused = new LongAdder();

	private final LongAdder connections = new LongAdder();

	private final AtomicReference<String> firstRefusal = new AtomicReference<>();

	private volatile boolean stopped;

	private final LongAdder cpuNanos = new LongAdder();

	private volatile long startedAt;

	private volatile long stoppedAt;

	private RdmaProvider provider;

	private RegisteredMemoryPool memory;

	private final List<RpcClientPool> pools = new ArrayList<>();

	/**
	 * @param threads connections creating contexts at once, a thread each
	 * @param credentials the attacker's Kerberos login
	 */
	GssContextFlood(int threads, KerberosCredentials credentials) {
		this.threads = threads;
		this.credentials = credentials;
	}

	@Override
	public String key() {
		return Attacks.GSS_CONTEXTS;
	}

	@Override
	public String description() {
		return "(3) RPCSEC_GSS contexts created as fast as the server accepts them, never destroyed";
	}

	@Override
	public Evidence evidence() {
		return Evidence.REPLIES;
	}

	@Override
	public void start(InetSocketAddress server) {
		this.stopped = false;
		this.startedAt = System.nanoTime();
		this.provider = RdmaProviders.open("siw");
		this.memory = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		for (int i = 0; i < this.threads; i++) {
			RpcClientPool pool = RpcClientPool.connect(this.provider, this.memory, server, TransportConfig.defaults(), 16,
					RpcClientPool.Config.of(1, 1));
			this.pools.add(pool);
			this.connections.increment();
			Thread thread = new Thread(() -> flood(pool), "attack-" + key() + "-" + i);
			thread.setDaemon(true);
			this.running.add(thread);
			thread.start();
		}
	}

	private void flood(RpcClientPool pool) {
		try {
			createContexts(pool);
		}
		finally {
			this.cpuNanos.add(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
		}
	}

	private void createContexts(RpcClientPool pool) {
		while (!this.stopped) {
			this.attempts.increment();
			try {
				// Established and dropped on the floor: never RPCSEC_GSS_DESTROY (RFC 2203 §5.4).
				RpcSecGssClient.establish(pool, AttackedService.PROGRAM, AttackedService.VERSION, this.credentials,
						AttackedServer.GSS_SERVICE, CONTEXT_TIMEOUT);
				this.contexts.increment();
			}
			catch (RuntimeException refused) {
				if (!this.stopped) {
					this.refused.increment();
					this.firstRefusal.compareAndSet(null, refused.toString());
				}
			}
		}
	}

	@Override
	public void stop() throws InterruptedException {
		this.stopped = true;
		this.stoppedAt = System.nanoTime();
		for (Thread thread : this.running) {
			thread.join(60_000);
			if (thread.isAlive()) {
				throw new IllegalStateException(thread.getName() + " did not stop within 60 s");
			}
		}
		this.running.clear();
		// Closing the connections makes the server forget their contexts.
		for (RpcClientPool pool : this.pools) {
			pool.close();
		}
		this.pools.clear();
		if (this.memory != null) {
			this.memory.close();
			this.provider.close();
			this.memory = null;
		}
	}

	@Override
	public Counts counts() {
		long end = (this.stoppedAt != 0) ? this.stoppedAt : System.nanoTime();
		// The client's provider threads are not counted: its own threads build the tokens.
		return new Counts(this.attempts.sum(), this.connections.sum(), this.refused.sum(), this.contexts.sum(), 0, null,
				this.firstRefusal.get(), this.cpuNanos.sum(), end - this.startedAt);
	}

}
