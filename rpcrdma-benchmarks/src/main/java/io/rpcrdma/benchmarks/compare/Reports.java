package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Writes a run's figures as {@code results.csv}, {@code results.json} and {@code results.md}
 * (the tables docs/benchmarks.md is made of).
 */
final class Reports {

	static final String CSV = "results.csv";

	static final String JSON = "results.json";

	static final String MARKDOWN = "results.md";

	/** Every round's figures, as measured. */
	static final String ROUNDS_CSV = "rounds.csv";

	private Reports() {
	}

	/**
	 * @param directory where the files go (created if missing)
	 * @param run the run
	 * @throws IOException if a file cannot be written
	 */
	static void write(Path directory, Run run) throws IOException {
		Files.createDirectories(directory);
		Files.writeString(directory.resolve(CSV), csv(run), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(ROUNDS_CSV), roundsCsv(run), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(JSON), json(run), StandardCharsets.UTF_8);
		Files.writeString(directory.resolve(MARKDOWN), markdown(run), StandardCharsets.UTF_8);
	}

	static String csv(Run run) {
		StringBuilder out = new StringBuilder("scenario,contender,parameter,metric,value,unit,calls\n");
		for (Measurement m : run.results()) {
			out.append(m.scenario()).append(',').append(m.contender()).append(',').append(m.parameter()).append(',')
				.append(m.metric()).append(',').append(String.format(Locale.ROOT, "%.3f", m.value())).append(',')
				.append(m.unit()).append(',').append(m.calls()).append('\n');
		}
		return out.toString();
	}

	static String roundsCsv(Run run) {
		StringBuilder out = new StringBuilder("round,scenario,contender,parameter,metric,value,unit,calls\n");
		for (int r = 0; r < run.rounds().size(); r++) {
			for (Measurement m : run.rounds().get(r)) {
				out.append(r + 1).append(',').append(m.scenario()).append(',').append(m.contender()).append(',')
					.append(m.parameter()).append(',').append(m.metric()).append(',')
					.append(String.format(Locale.ROOT, "%.3f", m.value())).append(',').append(m.unit()).append(',')
					.append(m.calls()).append('\n');
			}
		}
		return out.toString();
	}

	static String json(Run run) {
		Machine machine = run.machine();
		StringBuilder out = new StringBuilder("{\n");
		out.append("  \"mode\": ").append(quote(run.pace().name())).append(",\n");
		out.append("  \"machine\": {\n");
		out.append("    \"cores\": ").append(machine.cores()).append(",\n");
		out.append("    \"cpu\": ").append(quote(machine.cpu())).append(",\n");
		out.append("    \"memoryBytes\": ").append(machine.memoryBytes()).append(",\n");
		out.append("    \"jdk\": ").append(quote(machine.jdk())).append(",\n");
		out.append("    \"os\": ").append(quote(machine.os())).append(",\n");
		out.append("    \"startedAt\": ").append(quote(machine.startedAt().toString())).append(",\n");
		out.append("    \"loadAverageAtStart\": ").append(decimal(machine.loadAtStart())).append(",\n");
		out.append("    \"loadAverageAtEnd\": ").append(decimal(machine.loadAtEnd())).append(",\n");
		out.append("    \"stealFraction\": ").append(decimal(machine.stealFraction())).append("\n");
		out.append("  },\n  \"rounds\": ").append(run.rounds().size()).append(",\n  \"results\": [\n");
		List<Measurement> results = run.results();
		for (int i = 0; i < results.size(); i++) {
			Measurement m = results.get(i);
			out.append("    {\"scenario\": ").append(quote(m.scenario())).append(", \"contender\": ")
				.append(quote(m.contender())).append(", \"parameter\": ").append(m.parameter()).append(", \"metric\": ")
				.append(quote(m.metric())).append(", \"value\": ").append(decimal(m.value())).append(", \"unit\": ")
				.append(quote(m.unit())).append(", \"calls\": ").append(m.calls()).append('}')
				.append(i + 1 < results.size() ? ",\n" : "\n");
		}
		out.append("  ],\n  \"targets\": [\n");
		List<Target> targets = run.targets();
		for (int i = 0; i < targets.size(); i++) {
			Target t = targets.get(i);
			out.append("    {\"target\": ").append(quote(t.description())).append(", \"ratio\": ").append(decimal(t.ratio()))
				.append(", \"q1\": ").append(decimal(t.q1())).append(", \"q3\": ").append(decimal(t.q3()))
				.append(", \"rounds\": ").append(t.rounds()).append(", \"bound\": ").append(quote(t.boundText())).append(", \"met\": ").append(t.met()).append('}')
				.append(i + 1 < targets.size() ? ",\n" : "\n");
		}
		return out.append("  ]\n}\n").toString();
	}

	static String markdown(Run run) {
		Machine machine = run.machine();
		StringBuilder out = new StringBuilder();
		out.append("Run `").append(run.pace().name()).append("` started ").append(machine.startedAt()).append(": ")
			.append(machine.cores()).append(" cores (").append(machine.cpu()).append("), ")
			.append(machine.memoryBytes() >> 30).append(" GiB, ").append(machine.jdk()).append(", ").append(machine.os())
			.append("; load average ").append(number(machine.loadAtStart())).append(" at start, ")
			.append(number(machine.loadAtEnd())).append(" at end; ")
			.append((machine.stealFraction() < 0) ? "steal unknown"
					: String.format(Locale.ROOT, "%.1f %% of CPU time stolen", 100 * machine.stealFraction()))
			.append("; ").append(run.rounds().size()).append(run.rounds().size() == 1 ? " round" : " rounds")
			.append(", figures are medians of the rounds.\n\n");
		if (!Pace.FULL.name().equals(run.pace().name())) {
			out.append("**A ").append(run.pace().name()).append(" run: its figures decide nothing about the targets;"
					+ " run the full comparison for that.**\n\n");
		}
		List<String> contenders = contenders(run.results());

		out.append("### 64-byte call latency, 1 thread (µs)\n\n| contender | p50 | p99 | mean | calls |\n|---|---|---|---|---|\n");
		for (String c : contenders) {
			Optional<Double> p50 = Target.find(run.results(), c, Measurement.LATENCY, Workload.SMALL, "p50");
			if (p50.isEmpty()) {
				continue;
			}
			out.append("| ").append(c).append(" | ").append(number(p50.get())).append(" | ")
				.append(cell(run, c, Measurement.LATENCY, Workload.SMALL, "p99")).append(" | ")
				.append(cell(run, c, Measurement.LATENCY, Workload.SMALL, "mean")).append(" | ")
				.append(calls(run, c, Measurement.LATENCY, Workload.SMALL, "p50")).append(" |\n");
		}

		List<Long> threads = parameters(run.results(), Measurement.THROUGHPUT);
		out.append("\n### Throughput of 64-byte calls (calls/s)\n\n| contender |");
		threads.forEach((t) -> out.append(' ').append(t).append(t == 1 ? " thread |" : " threads |"));
		out.append("\n|---|").append("---|".repeat(threads.size())).append('\n');
		for (String c : contenders) {
			out.append("| ").append(c).append(" |");
			threads.forEach((t) -> out.append(' ').append(cell(run, c, Measurement.THROUGHPUT, t, "calls/s")).append(" |"));
			out.append('\n');
		}

		if (!parameters(run.results(), Measurement.BLOCKING_VIRTUAL).isEmpty()) {
			long n = Compare.BLOCKING_THREADS;
			out.append("\n### ").append(n).append(" blocking client threads: platform or virtual (calls/s)\n\n")
				.append("| contender | platform threads | virtual threads | virtual / platform |\n|---|---|---|---|\n");
			for (String c : contenders) {
				Optional<Double> platform = Target.find(run.results(), c, Measurement.BLOCKING_PLATFORM, n, "calls/s");
				Optional<Double> virtual = Target.find(run.results(), c, Measurement.BLOCKING_VIRTUAL, n, "calls/s");
				out.append("| ").append(c).append(" | ").append(platform.map(Reports::number).orElse("–")).append(" | ")
					.append(virtual.map(Reports::number).orElse("–")).append(" | ")
					.append((platform.isPresent() && virtual.isPresent())
							? String.format(Locale.ROOT, "%.2f", virtual.get() / platform.get()) : "–")
					.append(" |\n");
			}
		}

		if (!parameters(run.results(), Measurement.LATENCY_BUSY).isEmpty()) {
			out.append("\n### On a busy machine: one spinning thread per core\n\n")
				.append("| contender | p50 (µs) | p99 (µs) | ").append(Compare.BUSY_THREADS)
				.append("-thread calls/s |\n|---|---|---|---|\n");
			for (String c : contenders) {
				out.append("| ").append(c).append(" | ").append(cell(run, c, Measurement.LATENCY_BUSY, Workload.SMALL, "p50"))
					.append(" | ").append(cell(run, c, Measurement.LATENCY_BUSY, Workload.SMALL, "p99")).append(" | ")
					.append(cell(run, c, Measurement.THROUGHPUT_BUSY, Compare.BUSY_THREADS, "calls/s")).append(" |\n");
			}
		}

		for (String scenario : List.of(Measurement.BULK_ARGUMENT, Measurement.BULK_RESULT)) {
			List<Long> sizes = parameters(run.results(), scenario);
			out.append("\n### Bulk ").append(Measurement.BULK_ARGUMENT.equals(scenario) ? "arguments" : "results")
				.append(" (MB/s, 1 thread)\n\n| contender |");
			sizes.forEach((s) -> out.append(' ').append(size(s)).append(" |"));
			out.append("\n|---|").append("---|".repeat(sizes.size())).append('\n');
			for (String c : contenders) {
				out.append("| ").append(c).append(" |");
				sizes.forEach((s) -> out.append(' ').append(cell(run, c, scenario, s, "MB/s")).append(" |"));
				out.append('\n');
			}
		}

		appendCpu(out, run, contenders);

		out.append("\n### Targets\n\nThe median of the per-round ratios and their interquartile range; a target is met"
				+ " only when the whole range meets it.\n\n| target | median ratio | interquartile range | rounds | bound | met |\n"
				+ "|---|---|---|---|---|---|\n");
		for (Target t : run.targets()) {
			out.append("| ").append(t.description()).append(" | ").append(String.format(Locale.ROOT, "%.2f", t.ratio()))
				.append(" | ").append(String.format(Locale.ROOT, "%.2f–%.2f", t.q1(), t.q3())).append(" | ")
				.append(t.rounds()).append(" | ").append(t.boundText()).append(" | ").append(t.met() ? "yes" : "**no**")
				.append(" |\n");
		}
		return out.toString();
	}

	/**
	 * CPU time per 64-byte call and per MiB moved: what each call costs the machine, client and
	 * server together; where the server runs in a process of its own, its share in brackets.
	 */
	private static void appendCpu(StringBuilder out, Run run, List<String> contenders) {
		List<Long> threads = parameters(run.results(), Measurement.THROUGHPUT);
		if (Target.find(run.results(), contenders.get(0), Measurement.LATENCY, Workload.SMALL, Workload.CPU_PER_CALL)
			.isEmpty()) {
			return;
		}
		out.append("\n### CPU time per 64-byte call (µs, client and server together; the server's share in brackets"
				+ " where it runs in a process of its own)\n\n| contender | 1 thread, one call at a time |");
		threads.forEach((t) -> out.append(' ').append(t).append(t == 1 ? " thread |" : " threads |"));
		out.append("\n|---|---|").append("---|".repeat(threads.size())).append('\n');
		for (String c : contenders) {
			out.append("| ").append(c).append(" | ").append(cpuCell(run, c, Measurement.LATENCY, Workload.SMALL))
				.append(" |");
			threads.forEach((t) -> out.append(' ').append(cpuCell(run, c, Measurement.THROUGHPUT, t)).append(" |"));
			out.append('\n');
		}
		List<Long> sizes = parameters(run.results(), Measurement.BULK_ARGUMENT);
		out.append("\n### CPU time per MiB moved (ms, client and server together, 1 thread)\n\n| contender |");
		for (String scenario : List.of(Measurement.BULK_ARGUMENT, Measurement.BULK_RESULT)) {
			String what = Measurement.BULK_ARGUMENT.equals(scenario) ? " arguments |" : " results |";
			sizes.forEach((size) -> out.append(' ').append(size(size)).append(what));
		}
		out.append("\n|---|").append("---|".repeat(2 * sizes.size())).append('\n');
		for (String c : contenders) {
			out.append("| ").append(c).append(" |");
			for (String scenario : List.of(Measurement.BULK_ARGUMENT, Measurement.BULK_RESULT)) {
				sizes.forEach((size) -> out.append(' ').append(cell(run, c, scenario, size, Workload.CPU_PER_MEBIBYTE))
					.append(" |"));
			}
			out.append('\n');
		}
	}

	private static String cpuCell(Run run, String contender, String scenario, long parameter) {
		String total = cell(run, contender, scenario, parameter, Workload.CPU_PER_CALL);
		Optional<Double> server = Target.find(run.results(), contender, scenario, parameter, Workload.SERVER_CPU_PER_CALL);
		return server.map((value) -> total + " (" + number(value) + ")").orElse(total);
	}

	/**
	 * @param value a figure
	 * @return three significant digits, at most two decimals
	 */
	static String number(double value) {
		if (value < 0) {
			return "n/a";
		}
		if (value >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		if (value >= 10) {
			return String.format(Locale.ROOT, "%.1f", value);
		}
		return String.format(Locale.ROOT, "%.2f", value);
	}

	static String size(long bytes) {
		if (bytes < (1 << 10)) {
			return bytes + " B";
		}
		return bytes >= (1 << 20) ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
	}

	static List<String> contenders(List<Measurement> results) {
		Set<String> names = new LinkedHashSet<>();
		results.forEach((m) -> names.add(m.contender()));
		return new ArrayList<>(names);
	}

	static List<Long> parameters(List<Measurement> results, String scenario) {
		Set<Long> values = new LinkedHashSet<>();
		results.stream().filter((m) -> m.scenario().equals(scenario)).forEach((m) -> values.add(m.parameter()));
		return new ArrayList<>(values);
	}

	private static String cell(Run run, String contender, String scenario, long parameter, String metric) {
		return Target.find(run.results(), contender, scenario, parameter, metric).map(Reports::number).orElse("–");
	}

	private static String calls(Run run, String contender, String scenario, long parameter, String metric) {
		return run.results().stream()
			.filter((m) -> m.contender().equals(contender) && m.scenario().equals(scenario) && m.parameter() == parameter
					&& m.metric().equals(metric))
			.map((m) -> String.format(Locale.ROOT, "%,d", m.calls()))
			.findFirst()
			.orElse("–");
	}

	private static String decimal(double value) {
		return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "null";
	}

	private static String quote(String text) {
		StringBuilder out = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20) {
						out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		return out.append('"').toString();
	}

}
