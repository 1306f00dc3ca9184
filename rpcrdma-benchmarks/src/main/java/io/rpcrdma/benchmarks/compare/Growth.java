package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <li><b>idle connections</b>: each contender's server in a child JVM (the socket's and
 * gRPC-java's as the comparison has them, rpcrdma's with the library's defaults), and what it
 * holds (resident memory and threads; registered bytes for rpcrdma) as 0 to 10,000 idle
 * connections open to it from client JVMs of their own ({@link IdleClients}), with the clients'
 * registered bytes and threads beside; a step refused ends that contender's curve, and the run
 * says why.</li>
 * </ul>
 * The curves run in rounds, contenders interleaved; each figure is the median of the rounds.
 * Writes {@code growth.csv}, {@code growth-rounds.csv}, {@code growth-idle.csv},
 * {@code growth.md} and PNG plots into {@code docs/benchmarks/} (or {@code --out}).
 * <pre>
 * java -cp rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.compare.Growth [--quick | --smoke] [--rounds N]
 *     [--connections 1,16,256] [--sizes none] [--idle 0,10000]
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

	/** The options that choose a curve's points instead of the pace's ({@link Cases#of(Pace, List)}). */
	static final List<String> CURVE_OPTIONS = List.of("--connections", "--sizes", "--idle");

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
				return new Cases(List.of(1, 4), List.of(64, 64 << 10), List.of(0, 10, 50));
			}
			return new Cases(CONNECTIONS, SIZES, IDLE);
		}

		/**
		 * The cases of a pace, with the lists that {@code --connections}, {@code --sizes} and
		 * {@code --idle} name instead of its own (comma-separated counts; {@code none} for an
		 * empty list, which skips that curve).
		 * @param pace the pace whose lists are the defaults
		 * @param options the options and their values, in pairs
		 * @return the cases
		 * @throws IllegalArgumentException if an option is unknown or a value is not a list of
		 * non-negative counts
		 */
		static Cases of(Pace pace, List<String> options) {
			Cases cases = of(pace);
			for (int i = 0; i + 1 < options.size(); i += 2) {
				List<Integer> values = counts(options.get(i), options.get(i + 1));
				cases = switch (options.get(i)) {
					case "--connections" -> new Cases(values, cases.sizes(), cases.idle());
					case "--sizes" -> new Cases(cases.connections(), values, cases.idle());
					case "--idle" -> new Cases(cases.connections(), cases.sizes(), values);
					default -> throw new IllegalArgumentException("Unknown growth option " + options.get(i));
				};
			}
			return cases;
		}

		private static List<Integer> counts(String option, String value) {
			if (value.equals("none")) {
				return List.of();
			}
			try {
				List<Integer> counts = Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf)
					.toList();
				if (counts.stream().anyMatch((n) -> n < 0)) {
					throw new NumberFormatException("negative");
				}
				return counts;
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(option + " takes comma-separated counts such as 1,16,256, or none; got '"
						+ value + "'");
			}
		}

	}

	/**
	 * What the server and the client hold with some idle connections open.
	 *
	 * @param connections idle connections open (as the server counts them)
	 * @param serverRssBytes the server process's resident memory
	 * @param serverThreads the server process's threads
	 * @param serverRegisteredBytes what the server's memory pool registered; -1 for a contender
	 * that registers no memory (socket, gRPC)
	 * @param serverLeasedBytes what of it is leased (posted receives, mostly); -1 likewise
	 * @param clientRegisteredBytes what the clients' memory pools registered; -1 likewise
	 * @param clientThreads the client JVMs' threads
	 */
	record IdleSample(int connections, long serverRssBytes, int serverThreads, long serverRegisteredBytes,
			long serverLeasedBytes, long clientRegisteredBytes, int clientThreads) {
	}

	/**
	 * One contender's idle-connection curve.
	 *
	 * @param contender as {@link Contenders} names it
	 * @param samples the samples, fewest connections first
	 * @param stop why the curve ended before its last step, or {@code null} if it did not
	 */
	record IdleCurve(String contender, List<IdleSample> samples, String stop, String newConnection) {

		IdleCurve(String contender, List<IdleSample> samples, String stop) {
			this(contender, samples, stop, null);
		}

	}

	/**
	 * A finished growth run.
	 *
	 * @param curves the connection and size curves, as a comparison run
	 * @param idle each contender's idle-connection curve, in the order of {@link #CONTENDERS}
	 */
	record Result(Run curves, List<IdleCurve> idle) {
	}

	/**
	 * @param args {@code [--quick | --smoke] [--rounds N] [--out DIR] [--contenders a,b]
	 * [--connections a,b] [--sizes a,b] [--idle a,b]}
	 */
	public static void main(String[] args) {
		List<String> curves = new ArrayList<>();
		List<String> rest = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			if (CURVE_OPTIONS.contains(args[i]) && i + 1 < args.length) {
				curves.add(args[i]);
				curves.add(args[++i]);
			}
			else {
				rest.add(args[i]);
			}
		}
		CompareOptions options = CompareOptions.parseOrExit(rest.toArray(String[]::new));
		Cases cases;
		try {
			cases = Cases.of(options.pace(), curves);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		// Every connection of the curves makes a proxy, and each proxy says so at INFO.
		LIBRARY_LOG.setLevel(Level.WARNING);
		try {
			Result result = run(options, cases, System.out);
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
		// One contender's server at a time, so that the curves do not share the machine's memory.
		List<IdleCurve> idle = new ArrayList<>();
		for (String name : names) {
			idle.add(idle(name, cases.idle(), RdmaProviderConfig.defaults(), progress));
		}
		Run curves = new Run(options.pace(), machine.ended(), Rounds.medians(rounds), rounds, List.of());
		Result result = new Result(curves, idle);
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
	 * Opens idle connections step by step to a contender's server in a child JVM (rpcrdma's with
	 * the library's defaults), from client JVMs of their own holding at most
	 * {@link #CONNECTIONS_PER_CLIENT} each, and samples the server and the clients once the
	 * server counts them all. A step the server or the machine refuses ends the curve there; the
	 * run goes on and says why.
	 * @param contender one of {@link #CONTENDERS}
	 * @param steps idle connections at each sample, fewest first
	 * @param serverSettings rpcrdma's provider settings (the others have none)
	 * @param progress where each sample is reported
	 * @return the curve
	 * @throws Exception if a server or client process fails otherwise
	 */
	static IdleCurve idle(String contender, List<Integer> steps, RdmaProviderConfig serverSettings,
			PrintStream progress) throws Exception {
		List<IdleSample> samples = new ArrayList<>();
		List<IdleClientProcess> clients = new ArrayList<>();
		try (ServerProcess server = new ServerProcess(contender, true, serverSettings)) {
			try {
				for (int step : steps) {
					ServerProcess.Stats stats;
					try {
						hold(clients, contender, server, step);
						stats = settled(server, step);
					}
					catch (IdleClientProcess.IdleConnectionRefusedException | IdleStepUnsettledException refused) {
						String stop = "stopped before " + step + " idle connections: " + refused.getMessage();
						progress.println(contender + " idle curve " + stop);
						return new IdleCurve(contender, samples, stop);
					}
					IdleSample sample = sample(stats, processStatus(server.pid()), clients);
					samples.add(sample);
					progress.printf(Locale.ROOT,
							"idle %-11s %5d connections: server RSS %s, %d threads, registered %s (leased %s); %d client processes registered %s, %d threads%n",
							contender, sample.connections(), mebibytes(sample.serverRssBytes()), sample.serverThreads(),
							mebibytes(sample.serverRegisteredBytes()), mebibytes(sample.serverLeasedBytes()), clients.size(),
							mebibytes(sample.clientRegisteredBytes()), sample.clientThreads());
				}
				return new IdleCurve(contender, samples, null, newConnection(contender, server, progress));
			}
			finally {
				for (IdleClientProcess client : clients) {
					client.close();
				}
			}
		}
	}

	/**
	 * With every idle connection of the last step still open, a call on a new connection
	 * (issue #34: "calls on a new connection still succeed"); rpcrdma only.
	 * @return what became of the call, {@code null} for the other contenders
	 */
	private static String newConnection(String contender, ServerProcess server, PrintStream progress) {
		if (!contender.equals(Contenders.SIW)) {
			return null;
		}
		String outcome;
		long start = System.nanoTime();
		RpcRdmaContender.Running running = new RpcRdmaContender.Running(server.address(), () -> {
		});
		try (Contender probe = new RpcRdmaContender(contender, "siw", running, RpcRdmaContender.UNPROTECTED);
				Contender.Session session = probe.openSession()) {
			session.echo(Payloads.filled(Workload.SMALL));
			outcome = String.format(Locale.ROOT, "a 64-byte call on a new connection succeeded (%.1f ms to connect and call)",
					(System.nanoTime() - start) / 1e6);
		}
		catch (Exception ex) {
			outcome = "a 64-byte call on a new connection failed: " + ex;
		}
		progress.println(contender + " idle curve: " + outcome);
		return outcome;
	}

	private static IdleSample sample(ServerProcess.Stats server, long[] process, List<IdleClientProcess> clients)
			throws IOException {
		long clientRegistered = 0;
		int clientThreads = 0;
		for (IdleClientProcess client : clients) {
			IdleClientProcess.Stats figures = client.stats();
			clientRegistered += Math.max(0, figures.registeredBytes());
			clientThreads += figures.threads();
		}
		// A contender whose server registers no memory has clients that register none either.
		return new IdleSample(server.connections(), process[0], (int) process[1], server.registeredBytes(),
				server.leasedBytes(), (server.registeredBytes() < 0) ? -1 : clientRegistered, clientThreads);
	}

	/** Spreads {@code total} connections over client processes, starting more as needed. */
	private static void hold(List<IdleClientProcess> clients, String contender, ServerProcess server, int total)
			throws IOException {
		int remaining = total;
		for (int i = 0; remaining > 0 || i < clients.size(); i++) {
			if (i == clients.size()) {
				clients.add(new IdleClientProcess(contender, server.address().getPort()));
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
	static ServerProcess.Stats settled(ServerProcess server, int connections)
			throws IOException, InterruptedException {
		long allowed = IDLE_SETTLE_NANOS + connections * IDLE_SETTLE_NANOS_PER_CONNECTION;
		long deadline = System.nanoTime() + allowed;
		ServerProcess.Stats stats = server.stats();
		while (stats.connections() != connections) {
			if (System.nanoTime() > deadline) {
				throw new IdleStepUnsettledException("the server counts " + stats.connections() + " connections, not "
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
	 * client threads per connection (registered bytes NaN for a contender that registers no
	 * memory); empty with fewer than two samples
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
				perConnection(first.serverRegisteredBytes(), last.serverRegisteredBytes(), n),
				(last.serverThreads() - first.serverThreads()) / n,
				perConnection(first.clientRegisteredBytes(), last.clientRegisteredBytes(), n),
				(last.clientThreads() - first.clientThreads()) / n };
	}

	private static double perConnection(long first, long last, double n) {
		return (first < 0 || last < 0) ? Double.NaN : (last - first) / n;
	}

	static void write(Path directory, Result result) throws IOException {
		Files.createDirectories(directory);
		Files.writeString(directory.resolve(CSV), Reports.csv(result.curves()), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(ROUNDS_CSV), Reports.roundsCsv(result.curves()), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(IDLE_CSV), idleCsv(result.idle()), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(MARKDOWN), markdown(result), StandardCharsets.UTF_8);
		Charts.writeGrowth(directory, result);
	}

	/**
	 * @param curves each contender's idle curve
	 * @return one line per sample, the contender first; -1 for figures a contender does not have
	 */
	static String idleCsv(List<IdleCurve> curves) {
		StringBuilder out = new StringBuilder(
				"contender,connections,server_rss_bytes,server_threads,server_registered_bytes,server_leased_bytes,client_registered_bytes,client_threads\n");
		for (IdleCurve curve : curves) {
			for (IdleSample s : curve.samples()) {
				out.append(curve.contender()).append(',').append(s.connections()).append(',').append(s.serverRssBytes())
					.append(',').append(s.serverThreads()).append(',').append(s.serverRegisteredBytes()).append(',')
					.append(s.serverLeasedBytes()).append(',').append(s.clientRegisteredBytes()).append(',')
					.append(s.clientThreads()).append('\n');
			}
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
		for (IdleCurve curve : result.idle()) {
			idleMarkdown(out, curve);
		}
		return out.toString();
	}

	private static void idleMarkdown(StringBuilder out, IdleCurve curve) {
		out.append("\n#### Idle connections to one ").append(curve.contender()).append(" server (")
			.append(curve.contender().equals(Contenders.SIW) ? "library defaults, software iWARP; " : "")
			.append("clients in JVMs of their own, at most ")
			.append(CONNECTIONS_PER_CLIENT)
			.append(" connections each)\n\n");
		out.append("| connections | server RSS | server registered (leased) | server threads | client registered | client threads |\n");
		out.append("|---|---|---|---|---|---|\n");
		for (IdleSample s : curve.samples()) {
			out.append(String.format(Locale.ROOT, "| %d | %s | %s | %d | %s | %d |%n", s.connections(),
					mebibytes(s.serverRssBytes()),
					(s.serverRegisteredBytes() < 0) ? "n/a"
							: mebibytes(s.serverRegisteredBytes()) + " (" + mebibytes(s.serverLeasedBytes()) + ")",
					s.serverThreads(), mebibytes(s.clientRegisteredBytes()), s.clientThreads()));
		}
		if (curve.stop() != null) {
			out.append("\nThe ").append(curve.contender()).append(" idle curve ").append(curve.stop()).append('\n');
		}
		if (curve.newConnection() != null) {
			out.append("\nWith them all open, ").append(curve.newConnection()).append(".\n");
		}
		double[] each = perConnection(curve.samples());
		if (each.length > 0) {
			out.append(String.format(Locale.ROOT,
					"%nPer idle %s connection: server RSS %.1f KiB, server registered %s, %.2f server threads; client registered %s, %.2f client threads.%n",
					curve.contender(), each[0] / 1024, kibibytes(each[1]), each[2], kibibytes(each[3]), each[4]));
		}
	}

	private static String kibibytes(double bytes) {
		return Double.isNaN(bytes) ? "n/a" : String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
	}

}
