package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.rpcrdma.verbs.RdmaProviderConfig;


/**
 * How cost grows with connections and sizes (issue 16's growth curves), in one run on one
 * machine, contenders side by side:
 * <ul>
 * <li><b>connections</b>: calls/s and p99 of 64-byte echoes over 1, 4, 16, 64, 256 and 1,024 client
 * connections to one server, one blocking client thread per connection: plain sockets,
 * gRPC-java with a channel per thread, rpcrdma over software iWARP with a connection (a pool of
 * one) per thread;</li>
 * <li><b>sizes</b>: MB/s of bulk arguments and results from 64 bytes to 64 MiB, one thread,
 * through the contenders as {@link Compare} has them (gRPC's channel and rpcrdma's
 * connection shared and warm);</li>
 * <li><b>idle connections</b>: an rpcrdma server with the library's defaults in a child JVM,
 * and what it holds (resident memory, registered bytes, threads) as 0 to 10,000 idle
 * connections open to it from client JVMs of their own ({@link IdleClients}), with the clients'
 * registered bytes and threads beside; a step refused ends the curve, and the run says why.</li>
 * </ul>
 * The curves run in rounds, contenders interleaved; each figure is the median of the rounds.
 * Writes {@code growth.csv}, {@code growth-rounds.csv}, {@code growth-idle.csv},
 * {@code growth.md} and PNG plots into {@code docs/benchmarks/} (or {@code --out}).
 * <pre>
 * java -cp rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.compare.Growth [--quick | --smoke] [--rounds N]
 * </pre>
 */
public final class Growth {

	/** Client connections of the connection curve. */
	static final List<Integer> CONNECTIONS = List.of(1, 4, 16, 64, 256, 1024);

	/** Payload sizes of the size curves. */
	static final List<Integer> SIZES = List.of(64, 1 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20,
			BenchService.MAX_BULK);

	/** Idle connections open when the server is sampled (issue #34 asks for 10,000). */
	static final List<Integer> IDLE = List.of(0, 10, 100, 1000, 2500, 5000, 10_000);

	/**
	 * Idle connections one client JVM holds at most: the client side runs in JVMs of its own,
	 * so that the measuring JVM and the server hold only their own side.
	 */
	static final int CONNECTIONS_PER_CLIENT = 2_500;

	/** The contenders of the curves, as {@link Contenders} names them. */
	static final List<String> CONTENDERS = List.of(Contenders.SOCKET, Contenders.GRPC, Contenders.SIW);

	static final String CSV = "growth.csv";

	static final String ROUNDS_CSV = "growth-rounds.csv";

	static final String IDLE_CSV = "growth-idle.csv";

	static final String MARKDOWN = "growth.md";

	static final List<String> CHARTS = List.of("growth-connections.png", "growth-connections-p99.png",
			"growth-arguments.png", "growth-results.png", "growth-idle-memory.png", "growth-idle-threads.png");

	/** How long the idle connections of one step may take to reach the server, at least. */
	private static final long IDLE_SETTLE_NANOS = TimeUnit.SECONDS.toNanos(10);

	/** And how much longer for each connection of the step. */
	private static final long IDLE_SETTLE_NANOS_PER_CONNECTION = TimeUnit.MILLISECONDS.toNanos(10);

	/** Held, so that the level set on it is not lost with a collected logger. */
	private static final Logger LIBRARY_LOG = Logger.getLogger("io.rpcrdma");

	private Growth() {
	}

	/**
	 * The cases of one run: the full lists, or a few points of each for a smoke run.
	 *
	 * @param connections client connections of the connection curve
	 * @param sizes payload sizes of the size curves
	 * @param idle idle connection counts sampled
	 */
	record Cases(List<Integer> connections, List<Integer> sizes, List<Integer> idle) {

		static Cases of(Pace pace) {
			if (pace == Pace.SMOKE) {
				return new Cases(List.of(1, 4), List.of(64, 64 << 10), List.of(0, 2, 8));
			}
			return new Cases(CONNECTIONS, SIZES, IDLE);
		}

	}

	/**
	 * What the server and the client hold with some idle connections open.
	 *
	 * @param connections idle connections open (as the server counts them)
	 * @param serverRssBytes the server process's resident memory
	 * @param serverThreads the server process's threads
	 * @param serverRegisteredBytes what the server's memory pool registered
	 * @param serverLeasedBytes what of it is leased (posted receives, mostly)
	 * @param clientRegisteredBytes what the client's memory pool registered
	 * @param clientThreads the client JVM's threads
	 */
	record IdleSample(int connections, long serverRssBytes, int serverThreads, long serverRegisteredBytes,
			long serverLeasedBytes, long clientRegisteredBytes, int clientThreads) {
	}

	/**
	 * The idle-connection curve.
	 *
	 * @param samples the samples, fewest connections first
	 * @param stop why the curve ended before its last step, or {@code null} if it did not
	 */
	record IdleCurve(List<IdleSample> samples, String stop) {
	}

	/**
	 * A finished growth run.
	 *
	 * @param curves the connection and size curves, as a comparison run
	 * @param idle the idle-connection samples, fewest connections first
	 * @param idleStop why the idle curve ended before its last step, or {@code null}
	 */
	record Result(Run curves, List<IdleSample> idle, String idleStop) {
	}

	/**
	 * @param args {@code [--quick | --smoke] [--rounds N] [--out DIR] [--contenders a,b]}
	 */
	public static void main(String[] args) {
		CompareOptions options = CompareOptions.parseOrExit(args);
		// Every connection of the curves makes a proxy, and each proxy says so at INFO.
		LIBRARY_LOG.setLevel(Level.WARNING);
		try {
			Result result = run(options, Cases.of(options.pace()), System.out);
			System.out.println();
			System.out.println(markdown(result));
			System.out.println("Written to " + options.output().toAbsolutePath());
		}
		catch (Exception failed) {
			System.err.println("The growth run stopped: " + failed);
			failed.printStackTrace();
			System.exit(1);
			return;
		}
		System.exit(0);
	}

	/**
	 * Runs the curves and the idle-connection steps and writes their files.
	 * @param options pace, rounds, output and which of {@link #CONTENDERS} run the curves
	 * @param cases the points measured
	 * @param progress where each figure is reported as it is measured
	 * @return the run
	 * @throws Exception if a contender or the server fails
	 */
	static Result run(CompareOptions options, Cases cases, PrintStream progress) throws Exception {
		System.setProperty("java.awt.headless", "true");
		Machine machine = Machine.describe();
		List<String> names = options.contenders().stream().filter(CONTENDERS::contains).toList();
		progress.printf(Locale.ROOT, "growth %s run on %d cores, load average %.2f; contenders %s%n",
				options.pace().name(), machine.cores(), machine.loadAtStart(), names);
		Workload workload = new Workload(options.pace());
		List<List<Measurement>> rounds = new ArrayList<>();
		List<Contender> perConnection = new ArrayList<>();
		// The size curves call through the contenders as the comparison has them (one shared
		// channel or connection, warmed up): a fresh gRPC channel per session would measure
		// HTTP/2 flow-control windows still growing.
		try (Contenders shared = new Contenders(names)) {
			for (String name : names) {
				perConnection.add(open(name));
			}
			for (Contender c : perConnection) {
				workload.warmUp(c);
			}
			for (Contender c : shared.list()) {
				workload.warmUp(c);
			}
			for (int round = 1; round <= options.rounds(); round++) {
				progress.printf(Locale.ROOT, "round %d of %d%n", round, options.rounds());
				rounds.add(round(workload, perConnection, shared.list(), cases, progress));
			}
		}
		finally {
			for (int i = perConnection.size() - 1; i >= 0; i--) {
				perConnection.get(i).close();
			}
		}
		IdleCurve idle = idle(cases.idle(), RdmaProviderConfig.defaults(), progress);
		Run curves = new Run(options.pace(), machine.ended(), Rounds.medians(rounds), rounds, List.of());
		Result result = new Result(curves, idle.samples(), idle.stop());
		write(options.output(), result);
		return result;
	}

	/** The connection curve's contender: a connection of its own per client thread. */
	private static Contender open(String name) throws Exception {
		InetSocketAddress local = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
		return switch (name) {
			case Contenders.SOCKET -> new SocketContender();
			case Contenders.GRPC -> new GrpcContender(true);
			case Contenders.SIW -> RpcRdmaContender.connectionPerSession(Contenders.SIW, "siw", local);
			default -> throw new IllegalArgumentException("No growth contender named " + name + "; choose from "
					+ CONTENDERS);
		};
	}

	private static List<Measurement> round(Workload workload, List<Contender> perConnection, List<Contender> shared,
			Cases cases, PrintStream progress) throws Exception {
		List<Measurement> results = new ArrayList<>();
		for (int connections : cases.connections()) {
			for (Contender c : perConnection) {
				results.addAll(Compare.report(progress, workload.connections(c, connections)));
			}
		}
		for (boolean argument : List.of(true, false)) {
			for (int size : cases.sizes()) {
				for (Contender c : shared) {
					results.addAll(Compare.report(progress, workload.bulk(c, argument, size)));
				}
			}
		}
		return results;
	}

	/**
	 * Opens idle connections step by step to a server in a child JVM with the library's
	 * defaults, from client JVMs of their own holding at most {@link #CONNECTIONS_PER_CLIENT}
	 * each, and samples the server and the clients once the server counts them all. A step the
	 * server or the machine refuses ends the curve there; the run goes on and says why.
	 */
	static IdleCurve idle(List<Integer> steps, RdmaProviderConfig serverSettings, PrintStream progress)
			throws Exception {
		List<IdleSample> samples = new ArrayList<>();
		List<IdleClientProcess> clients = new ArrayList<>();
		try (ServerProcess server = new ServerProcess(true, serverSettings)) {
			try {
				for (int step : steps) {
					long[] stats;
					try {
						hold(clients, server, step);
						stats = settled(server, step);
					}
					catch (IdleClientProcess.IdleConnectionRefusedException | IdleStepUnsettledException refused) {
						String stop = "stopped before " + step + " idle connections: " + refused.getMessage();
						progress.println("idle curve " + stop);
						return new IdleCurve(samples, stop);
					}
					long[] process = processStatus(server.pid());
					long clientRegistered = 0;
					int clientThreads = 0;
					for (IdleClientProcess client : clients) {
						long[] figures = client.stats();
						clientRegistered += figures[0];
						clientThreads += (int) figures[1];
					}
					IdleSample sample = new IdleSample((int) stats[2], process[0], (int) process[1], stats[0], stats[1],
							clientRegistered, clientThreads);
					samples.add(sample);
					progress.printf(Locale.ROOT,
							"idle %5d connections: server RSS %s, %d threads, registered %s (leased %s); %d client processes registered %s, %d threads%n",
							sample.connections(), mebibytes(sample.serverRssBytes()), sample.serverThreads(),
							mebibytes(sample.serverRegisteredBytes()), mebibytes(sample.serverLeasedBytes()), clients.size(),
							mebibytes(sample.clientRegisteredBytes()), sample.clientThreads());
				}
			}
			finally {
				for (IdleClientProcess client : clients) {
					client.close();
				}
			}
		}
		return new IdleCurve(samples, null);
	}

	/** Spreads {@code total} connections over client processes, starting more as needed. */
	private static void hold(List<IdleClientProcess> clients, ServerProcess server, int total) throws IOException {
		int remaining = total;
		for (int i = 0; remaining > 0 || i < clients.size(); i++) {
			if (i == clients.size()) {
				clients.add(new IdleClientProcess(server.address().getPort()));
			}
			int share = Math.min(remaining, CONNECTIONS_PER_CLIENT);
			IdleClientProcess client = clients.get(i);
			if (client.held() < share) {
				client.hold(share);
			}
			remaining -= Math.max(share, client.held());
		}
	}

	/**
	 * The server's stats once it counts {@code connections} connections: within 10 s and 10 ms
	 * more per connection (a client whose connection is refused retries it rather than failing).
	 */
	private static long[] settled(ServerProcess server, int connections) throws IOException, InterruptedException {
		long allowed = IDLE_SETTLE_NANOS + connections * IDLE_SETTLE_NANOS_PER_CONNECTION;
		long deadline = System.nanoTime() + allowed;
		long[] stats = server.stats();
		while (stats[2] != connections) {
			if (System.nanoTime() > deadline) {
				throw new IdleStepUnsettledException("the server counts " + stats[2] + " connections, not "
						+ connections + ", after " + TimeUnit.NANOSECONDS.toSeconds(allowed) + " s");
			}
			TimeUnit.MILLISECONDS.sleep(20);
			stats = server.stats();
		}
		return stats;
	}

	/** The server did not count a step's connections in time: where the idle curve stops. */
	static final class IdleStepUnsettledException extends IOException {

		private static final long serialVersionUID = 1L;

		IdleStepUnsettledException(String message) {
			super(message);
		}

	}

	/**
	 * @return resident bytes and threads of a process, from {@code /proc/<pid>/status}; -1 for
	 * each where that cannot be read (not Linux)
	 */
	static long[] processStatus(long pid) {
		long rss = -1;
		long threads = -1;
		try {
			for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
				if (line.startsWith("VmRSS:")) {
					rss = Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
				}
				else if (line.startsWith("Threads:")) {
					threads = Long.parseLong(line.substring(8).trim());
				}
			}
		}
		catch (IOException | RuntimeException unreadable) {
			// Not Linux, or the process is gone: the figures stay unknown.
		}
		return new long[] { rss, threads };
	}

	private static String mebibytes(long bytes) {
		return (bytes < 0) ? "n/a" : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
	}

	/**
	 * What each idle connection adds, from the first and last samples.
	 * @param idle the samples
	 * @return server RSS, server registered bytes, server threads, client registered bytes and
	 * client threads per connection; empty with fewer than two samples
	 */
	static double[] perConnection(List<IdleSample> idle) {
		if (idle.size() < 2) {
			return new double[0];
		}
		IdleSample first = idle.get(0);
		IdleSample last = idle.get(idle.size() - 1);
		double n = last.connections() - first.connections();
		if (n <= 0) {
			return new double[0];
		}
		return new double[] { (last.serverRssBytes() - first.serverRssBytes()) / n,
				(last.serverRegisteredBytes() - first.serverRegisteredBytes()) / n,
				(last.serverThreads() - first.serverThreads()) / n,
				(last.clientRegisteredBytes() - first.clientRegisteredBytes()) / n,
				(last.clientThreads() - first.clientThreads()) / n };
	}

	static void write(Path directory, Result result) throws IOException {
		Files.createDirectories(directory);
		Files.writeString(directory.resolve(CSV), Reports.csv(result.curves()), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(ROUNDS_CSV), Reports.roundsCsv(result.curves()), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(IDLE_CSV), idleCsv(result.idle()), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(MARKDOWN), markdown(result), StandardCharsets.UTF_8);
		Charts.writeGrowth(directory, result);
	}

	static String idleCsv(List<IdleSample> idle) {
		StringBuilder out = new StringBuilder(
				"connections,server_rss_bytes,server_threads,server_registered_bytes,server_leased_bytes,client_registered_bytes,client_threads\n");
		for (IdleSample s : idle) {
			out.append(s.connections()).append(',').append(s.serverRssBytes()).append(',').append(s.serverThreads())
				.append(',').append(s.serverRegisteredBytes()).append(',').append(s.serverLeasedBytes()).append(',')
				.append(s.clientRegisteredBytes()).append(',').append(s.clientThreads()).append('\n');
		}
		return out.toString();
	}

	/**
	 * @param result the run
	 * @return its tables, as docs/benchmarks.md shows them
	 */
	static String markdown(Result result) {
		Run run = result.curves();
		Machine m = run.machine();
		List<Measurement> results = run.results();
		List<String> contenders = Reports.contenders(results);
		StringBuilder out = new StringBuilder();
		out.append(String.format(Locale.ROOT,
				"Growth run `%s` started %s: %d cores (%s), load average %s at start, %s at end; %d rounds, figures are medians of the rounds.%n%n",
				run.pace().name(), m.startedAt(), m.cores(), m.cpu(), Reports.number(m.loadAtStart()),
				Reports.number(m.loadAtEnd()), run.rounds().size()));
		if (run.pace() != Pace.FULL) {
			out.append("A ").append(run.pace().name())
				.append(" run: its figures are rough and decide nothing; record a full run.\n\n");
		}
		out.append("#### 64-byte calls over one connection per client thread: calls/s (p99 µs; CPU µs per call)\n\n");
		out.append("| connections |");
		contenders.forEach((c) -> out.append(' ').append(c).append(" |"));
		out.append('\n').append("|---|");
		contenders.forEach((c) -> out.append("---|"));
		out.append('\n');
		for (long connections : Reports.parameters(results, Measurement.CONNECTIONS)) {
			out.append("| ").append(connections).append(" |");
			for (String c : contenders) {
				String rate = Target.find(results, c, Measurement.CONNECTIONS, connections, "calls/s")
					.map(Reports::number)
					.orElse("–");
				String p99 = Target.find(results, c, Measurement.CONNECTIONS, connections, "p99")
					.map(Reports::number)
					.orElse("–");
				String cpu = Target.find(results, c, Measurement.CONNECTIONS, connections, Workload.CPU_PER_CALL)
					.map(Reports::number)
					.orElse("–");
				out.append(' ').append(rate).append(" (").append(p99).append("; ").append(cpu).append(") |");
			}
			out.append('\n');
		}
		for (String scenario : List.of(Measurement.BULK_ARGUMENT, Measurement.BULK_RESULT)) {
			out.append('\n')
				.append(scenario.equals(Measurement.BULK_ARGUMENT)
						? "#### Bulk arguments by size (MB/s, 1 thread; CPU ms per MiB moved)"
						: "#### Bulk results by size (MB/s, 1 thread; CPU ms per MiB moved)")
				.append("\n\n| size |");
			contenders.forEach((c) -> out.append(' ').append(c).append(" |"));
			out.append('\n').append("|---|");
			contenders.forEach((c) -> out.append("---|"));
			out.append('\n');
			for (long size : Reports.parameters(results, scenario)) {
				out.append("| ").append(Reports.size(size)).append(" |");
				for (String c : contenders) {
					out.append(' ')
						.append(Target.find(results, c, scenario, size, "MB/s").map(Reports::number).orElse("–"))
						.append(" (")
						.append(Target.find(results, c, scenario, size, Workload.CPU_PER_MEBIBYTE)
							.map(Reports::number)
							.orElse("–"))
						.append(") |");
				}
				out.append('\n');
			}
		}
		out.append("\n#### Idle connections to one rpcrdma server (library defaults, software iWARP; clients in JVMs of their own, at most ")
			.append(CONNECTIONS_PER_CLIENT)
			.append(" connections each)\n\n");
		out.append("| connections | server RSS | server registered (leased) | server threads | client registered | client threads |\n");
		out.append("|---|---|---|---|---|---|\n");
		for (IdleSample s : result.idle()) {
			out.append(String.format(Locale.ROOT, "| %d | %s | %s (%s) | %d | %s | %d |%n", s.connections(),
					mebibytes(s.serverRssBytes()), mebibytes(s.serverRegisteredBytes()),
					mebibytes(s.serverLeasedBytes()), s.serverThreads(), mebibytes(s.clientRegisteredBytes()),
					s.clientThreads()));
		}
		if (result.idleStop() != null) {
			out.append("\nThe idle curve ").append(result.idleStop()).append('\n');
		}
		double[] each = perConnection(result.idle());
		if (each.length > 0) {
			out.append(String.format(Locale.ROOT,
					"%nPer idle connection: server RSS %.1f KiB, server registered %.1f KiB, %.2f server threads; client registered %.1f KiB, %.2f client threads.%n",
					each[0] / 1024, each[1] / 1024, each[2], each[3] / 1024, each[4]));
		}
		return out.toString();
	}

}
