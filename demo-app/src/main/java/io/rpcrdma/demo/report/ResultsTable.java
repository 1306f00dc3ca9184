package io.rpcrdma.demo.report;

import java.time.Duration;
import java.util.Locale;

import io.rpcrdma.demo.Sizes;
import io.rpcrdma.demo.workload.OperationStats;
import io.rpcrdma.demo.workload.WorkloadResult;

/**
 * The workload's results as a plain-text table: per operation calls, calls/s, p50 and p99
 * latency and MB/s, then how the calls travelled.
 */
public final class ResultsTable {

	private ResultsTable() {
	}

	/**
	 * @param result the workload's result
	 * @param conveyance what the transport counted during it
	 * @param provider the RDMA provider's name
	 * @return the table, lines ending in {@code \n}
	 */
	public static String format(WorkloadResult result, ConveyanceTally conveyance, String provider) {
		StringBuilder out = new StringBuilder();
		double seconds = result.elapsed().toNanos() / 1e9;
		out.append(String.format(Locale.ROOT, "%n%d calls in %.1f s over %s, %d client threads%n%n",
				result.total().calls(), seconds, provider, result.threads()));
		String row = "%-8s %9s %10s %11s %11s %10s%n";
		out.append(String.format(Locale.ROOT, row, "call", "calls", "calls/s", "p50", "p99", "MB/s"));
		out.append(String.format(Locale.ROOT, row, "--------", "---------", "----------", "-----------",
				"-----------", "----------"));
		for (OperationStats operation : result.operations()) {
			out.append(String.format(Locale.ROOT, row, operation.name(), operation.calls(),
					String.format(Locale.ROOT, "%.0f", operation.calls() / seconds), latency(operation.p50()),
					latency(operation.p99()),
					(operation.bytes() > 0) ? String.format(Locale.ROOT, "%.1f", operation.bytes() / seconds / 1e6) : "-"));
		}
		out.append(String.format(Locale.ROOT, "%nobject bytes moved: %s; deleted objects read back as "
				+ "ObjectNotFoundException faults: %d%n%n", Sizes.format(result.total().bytes()), result.notFound()));
		out.append("conveyance (TransportStats counters; every call and reply carries its RPC header inline)\n");
		String line = "  %-46s %13s%n";
		out.append(String.format(Locale.ROOT, line, "inline RDMA_MSG sent: calls / replies",
				conveyance.callsInline() + " / " + server(conveyance.repliesInline())));
		out.append(String.format(Locale.ROOT, line, "Read chunks advertised (put contents)", conveyance.readChunks()));
		out.append(String.format(Locale.ROOT, line, "Write chunks filled (get and read contents)", server(conveyance.writeChunks())));
		out.append(String.format(Locale.ROOT, line, "Reply chunks filled (long replies)", server(conveyance.replyChunks())));
		out.append(String.format(Locale.ROOT, line, "calls that waited for a credit", conveyance.creditsWaited()));
		if (!conveyance.serverSeen()) {
			out.append("  (n/a: counted by the server, which runs in another process)\n");
		}
		return out.toString();
	}

	/**
	 * @param latency a latency
	 * @return it in µs below 10 ms, else in ms
	 */
	static String latency(Duration latency) {
		long micros = latency.toNanos() / 1000;
		if (micros < 10_000) {
			return micros + " µs";
		}
		return String.format(Locale.ROOT, "%.1f ms", latency.toNanos() / 1e6);
	}

	private static String server(long count) {
		return (count < 0) ? "n/a" : Long.toString(count);
	}

}
