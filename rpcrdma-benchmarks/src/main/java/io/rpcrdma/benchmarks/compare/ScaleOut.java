package io.rpcrdma.benchmarks.compare;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

import io.rpcrdma.client.CallTimer;
import io.rpcrdma.client.RetryPolicy;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.BalancedCaller;
import io.rpcrdma.client.balance.InstancePools;
import io.rpcrdma.client.balance.InstanceSource;
import io.rpcrdma.client.balance.ServerInstance;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Scaling out over server processes on this machine, and what balancing costs on the call
 * path. Three {@link CompareServer}s in child JVMs over software iWARP on 127.0.0.1; this JVM
 * holds the client alone.
 * <ul>
 * <li>Calls/s of 64-byte echoes from {@value #THREADS} blocking client threads through a
 * {@link BalancedCaller} (round robin) over the first 1, 2 and 3 servers.</li>
 * <li>p50 latency of one thread's 64-byte echoes to the first server through a
 * {@link BalancedCaller} over an {@link InstanceSource} listing it, and through a fixed
 * {@link RpcClientPool} to it: the balancing layer's cost per call, side by side.</li>
 * </ul>
 * In rounds, cases interleaved; each figure is the median of the rounds, each ratio the median
 * of the per-round ratios with their interquartile range.
 * <pre>
 * java --add-exports java.base/sun.nio.ch=ALL-UNNAMED -cp rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar \
 *   io.rpcrdma.benchmarks.compare.ScaleOut [--quick | --smoke]
 * </pre>
 */
public final class ScaleOut {

	/** Client threads of the throughput case: enough to keep three servers' credits busy. */
	static final int THREADS = 32;

	private static final int SERVERS = 3;

	private ScaleOut() {
	}

	/**
	 * @param args {@code [--quick | --smoke]}
	 * @throws Exception if the run fails
	 */
	public static void main(String[] args) throws Exception {
		Pace pace = (args.length > 0 && "--quick".equals(args[0])) ? Pace.QUICK
				: (args.length > 0 && "--smoke".equals(args[0])) ? Pace.SMOKE : Pace.FULL;
		run(pace, System.out);
		System.exit(0);
	}

	/**
	 * Starts the servers, measures every case in rounds, and prints the tables.
	 * @param pace how long each case runs, and how many rounds
	 * @param out where the tables go
	 * @return the measurements of each round, by case name
	 * @throws Exception if a server does not start or a call fails
	 */
	static List<Map<String, Double>> run(Pace pace, PrintStream out) throws Exception {
		Machine machine = Machine.describe();
		List<ServerProcess> servers = new ArrayList<>();
		List<Map<String, Double>> rounds = new ArrayList<>();
		try (RdmaProvider provider = RdmaProviders.open("siw")) {
			RegisteredMemoryPool memory = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
					MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
			for (int i = 0; i < SERVERS; i++) {
				servers.add(new ServerProcess());
			}
			Map<String, CallerContender> balanced = new LinkedHashMap<>();
			List<CallerContender> all = new ArrayList<>();
			try {
				for (int count = 1; count <= SERVERS; count++) {
					CallerContender contender = balanced(count + (count == 1 ? " server" : " servers"), provider, memory,
							servers.subList(0, count));
					balanced.put(contender.name(), contender);
					all.add(contender);
				}
				CallerContender fixed = new CallerContender("fixed pool", pool(provider, memory, servers.get(0).address()));
				all.add(fixed);
				CallerContender oneBalanced = balanced.get("1 server");
				Workload workload = new Workload(pace);
				Workload warming = new Workload(new Pace("warm-up", Duration.ZERO, pace.contenderWarmup(),
						Duration.ofMillis(1), Duration.ofMillis(1), 1, 1));
				for (CallerContender contender : all) {
					warming.throughput(contender, 8);
				}
				for (int round = 0; round < pace.rounds(); round++) {
					Map<String, Double> measured = new LinkedHashMap<>();
					for (CallerContender contender : balanced.values()) {
						measured.put(contender.name(), workload.throughput(contender, THREADS).get(0).value());
					}
					// Alternating which goes first within the round, so neither always follows the load.
					List<CallerContender> pair = (round % 2 == 0) ? List.of(fixed, oneBalanced) : List.of(oneBalanced, fixed);
					for (CallerContender contender : pair) {
						measured.put("p50 " + contender.name(), p50(workload.latency(contender)));
					}
					rounds.add(measured);
				}
			}
			finally {
				for (CallerContender contender : all) {
					contender.close();
				}
				memory.close();
			}
		}
		finally {
			for (ServerProcess server : servers) {
				server.close();
			}
		}
		print(rounds, pace, machine.ended(), out);
		return rounds;
	}

	private static double p50(List<Measurement> latency) {
		return latency.stream().filter((m) -> "p50".equals(m.metric())).findFirst().orElseThrow().value();
	}

	/** A pool like each instance's under the balanced caller: one connection, no retry of its own. */
	private static RpcClientPool pool(RdmaProvider provider, RegisteredMemoryPool memory, InetSocketAddress address) {
		int room = 2 * THREADS;
		RpcClientPool.Config defaults = RpcClientPool.Config.of(1, 1);
		RpcClientPool.Config config = new RpcClientPool.Config(1, 1, room, defaults.reconnect(), RetryPolicy.none(),
				defaults.idleTimeout());
		return RpcClientPool.connect(provider, memory, address, RpcRdmaSetup.transport(), room, config);
	}

	private static CallerContender balanced(String name, RdmaProvider provider, RegisteredMemoryPool memory,
			List<ServerProcess> servers) {
		List<ServerInstance> instances = new ArrayList<>();
		for (ServerProcess server : servers) {
			instances.add(ServerInstance.of(server.address()));
		}
		InstancePools pools = (instance) -> pool(provider, memory, instance.address());
		BalancedCaller.Config config = BalancedCaller.Config.defaults();
		return new CallerContender(name, new BalancedCaller(name, InstanceSource.of(instances), pools,
				UnaryOperator.identity(), config, config.balancer().create(ThreadLocalRandom.current()), CallTimer.shared()));
	}

	static void print(List<Map<String, Double>> rounds, Pace pace, Machine machine, PrintStream out) {
		out.printf(Locale.ROOT, "%nScale-out, software iWARP, %d server process(es), %d round(s) (%s), %d cores, "
				+ "load average %.1f at the start and %.1f at the end:%n%n", SERVERS, rounds.size(), pace.name(),
				machine.cores(), machine.loadAtStart(), machine.loadAtEnd());
		out.println("| servers | calls/s (" + THREADS + " threads) | ratio to 1 server |");
		out.println("|---|---|---|");
		for (int count = 1; count <= SERVERS; count++) {
			String name = count + (count == 1 ? " server" : " servers");
			out.println("| " + count + " | " + figures(rounds, name, "1 server", "%.0f") + " |");
		}
		out.println();
		out.println("| path (1 server, 1 thread) | 64 B p50 (µs) | ratio to the fixed pool |");
		out.println("|---|---|---|");
		out.println("| fixed RpcClientPool | " + figures(rounds, "p50 fixed pool", "p50 fixed pool", "%.1f") + " |");
		out.println("| BalancedCaller over an InstanceSource | " + figures(rounds, "p50 1 server", "p50 fixed pool", "%.1f")
				+ " |");
		if (pace != Pace.FULL) {
			out.println();
			out.println("(" + pace.name() + " pace: these figures decide nothing)");
		}
	}

	/** The median figure, then the median per-round ratio to {@code base} [quartiles]. */
	private static String figures(List<Map<String, Double>> rounds, String name, String base, String format) {
		double[] values = new double[rounds.size()];
		double[] ratios = new double[rounds.size()];
		for (int r = 0; r < rounds.size(); r++) {
			values[r] = rounds.get(r).get(name);
			ratios[r] = values[r] / rounds.get(r).get(base);
		}
		return String.format(Locale.ROOT, format + " | %.2f [%.2f–%.2f]", Rounds.quantile(values, 0.5),
				Rounds.quantile(ratios, 0.5), Rounds.quantile(ratios, 0.25), Rounds.quantile(ratios, 0.75));
	}

	/** Echo calls through a given caller, closed with the contender. */
	static final class CallerContender implements Contender {

		private final String name;

		private final AutoCloseable caller;

		private final BenchService service;

		<C extends RpcCaller & AutoCloseable> CallerContender(String name, C caller) {
			this.name = name;
			this.caller = caller;
			this.service = new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard())).create(
					BenchService.class, caller, ServiceClientOptions.DEFAULTS.withTimeout(Duration.ofSeconds(60))
						.withMaxReplySize(1024));
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public Session openSession() {
			return new Session() {

				@Override
				public void echo(byte[] request) throws UnexpectedReplyException {
					byte[] reply = CallerContender.this.service.echo(request);
					if (reply.length != request.length) {
						throw new UnexpectedReplyException(CallerContender.this.name,
								reply.length + " bytes echoed for " + request.length);
					}
				}

				@Override
				public void put(int length) {
					throw new UnsupportedOperationException("the scale-out benchmark makes small calls only");
				}

				@Override
				public void get(int length) {
					throw new UnsupportedOperationException("the scale-out benchmark makes small calls only");
				}

				@Override
				public void close() {
				}

			};
		}

		@Override
		public void close() throws Exception {
			this.caller.close();
		}

	}

}
