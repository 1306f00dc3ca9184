package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The run's PNG plots, drawn off-screen with XChart.
 */
final class Charts {

	static final List<String> FILES = List.of("latency.png", "throughput.png", "bulk-arguments.png", "bulk-results.png");

	private static final int WIDTH = 900;

	private static final int HEIGHT = 520;

	private Charts() {
	}

	/**
	 * @param directory where the PNG files go (created if missing)
	 * @param run the run
	 * @throws IOException if a file cannot be written
	 */
	static void write(Path directory, Run run) throws IOException {
		System.setProperty("java.awt.headless", "true");
		Files.createDirectories(directory);
		List<Measurement> results = run.results();
		List<String> contenders = Reports.contenders(results);
		String subtitle = " (" + run.machine().cores() + " cores, load " + Reports.number(run.machine().loadAtStart())
				+ "–" + Reports.number(run.machine().loadAtEnd()) + ", " + run.pace().name() + " run)";

		CategoryChart latency = chart("64-byte call latency, 1 thread" + subtitle, "contender", "µs (log scale)", true);
		List<String> latencyContenders = new ArrayList<>();
		List<Number> p50 = new ArrayList<>();
		List<Number> p99 = new ArrayList<>();
		for (String c : contenders) {
			var median = Target.find(results, c, Measurement.LATENCY, Workload.SMALL, "p50");
			if (median.isPresent()) {
				latencyContenders.add(c);
				p50.add(median.get());
				p99.add(Target.find(results, c, Measurement.LATENCY, Workload.SMALL, "p99").orElse(0.0));
			}
		}
		if (!latencyContenders.isEmpty()) {
			latency.addSeries("p50", latencyContenders, p50);
			latency.addSeries("p99", latencyContenders, p99);
			double smallest = p50.stream().mapToDouble(Number::doubleValue).filter((v) -> v > 0).min().orElse(1);
			latency.getStyler().setYAxisMin(floorPowerOfTen(smallest));
			save(latency, directory.resolve(FILES.get(0)));
		}

		perContender(results, contenders, Measurement.THROUGHPUT, "calls/s",
				chart("Throughput of 64-byte calls" + subtitle, "client threads", "calls/s (log scale)", true), false,
				directory.resolve(FILES.get(1)));
		perContender(results, contenders, Measurement.BULK_ARGUMENT, "MB/s",
				chart("Bulk arguments, 1 thread" + subtitle, "argument size", "MB/s (log scale)", true), true,
				directory.resolve(FILES.get(2)));
		perContender(results, contenders, Measurement.BULK_RESULT, "MB/s",
				chart("Bulk results, 1 thread" + subtitle, "result size", "MB/s (log scale)", true), true,
				directory.resolve(FILES.get(3)));
	}

	/**
	 * The growth run's plots ({@link Growth#CHARTS}).
	 * @param directory where the PNG files go (created if missing)
	 * @param result the growth run
	 * @throws IOException if a file cannot be written
	 */
	static void writeGrowth(Path directory, Growth.Result result) throws IOException {
		System.setProperty("java.awt.headless", "true");
		Files.createDirectories(directory);
		Run run = result.curves();
		List<Measurement> results = run.results();
		List<String> contenders = Reports.contenders(results);
		String subtitle = " (" + run.machine().cores() + " cores, " + run.pace().name() + " run)";
		perContender(results, contenders, Measurement.CONNECTIONS, "calls/s",
				chart("64-byte calls, one thread per connection" + subtitle, "client connections", "calls/s (log scale)",
						true),
				false, directory.resolve(Growth.CHARTS.get(0)));
		perContender(results, contenders, Measurement.CONNECTIONS, "p99",
				chart("p99 latency, one thread per connection" + subtitle, "client connections", "µs (log scale)", true),
				false, directory.resolve(Growth.CHARTS.get(1)));
		perContender(results, contenders, Measurement.BULK_ARGUMENT, "MB/s",
				chart("Bulk arguments by size, 1 thread" + subtitle, "argument size", "MB/s (log scale)", true), true,
				directory.resolve(Growth.CHARTS.get(2)));
		perContender(results, contenders, Measurement.BULK_RESULT, "MB/s",
				chart("Bulk results by size, 1 thread" + subtitle, "result size", "MB/s (log scale)", true), true,
				directory.resolve(Growth.CHARTS.get(3)));
		writeIdle(directory, result.idle(), subtitle);
	}

	private static void writeIdle(Path directory, List<Growth.IdleCurve> curves, String subtitle) throws IOException {
		if (curves.stream().allMatch((c) -> c.samples().isEmpty())) {
			return;
		}
		List<XYChart> charts = idleCharts(curves, subtitle);
		save(charts.get(0), directory.resolve(Growth.CHARTS.get(4)));
		save(charts.get(1), directory.resolve(Growth.CHARTS.get(5)));
	}

	/**
	 * The idle-connection plots: a line per contender of its server's resident memory (and, for
	 * rpcrdma, registered bytes), and of its server's threads, against idle connections.
	 * @param curves each contender's idle curve
	 * @param subtitle the run's, after each title
	 * @return the memory plot and the threads plot
	 */
	static List<XYChart> idleCharts(List<Growth.IdleCurve> curves, String subtitle) {
		XYChart memory = xyChart("Idle connections to one server: memory" + subtitle, "idle connections", "MiB");
		XYChart threads = xyChart("Idle connections to one server: threads" + subtitle, "idle connections",
				"server threads");
		for (Growth.IdleCurve curve : curves) {
			List<Growth.IdleSample> idle = curve.samples();
			if (idle.isEmpty()) {
				continue;
			}
			List<Number> counts = idle.stream().map((s) -> (Number) s.connections()).toList();
			memory.addSeries(curve.contender() + " server RSS", counts, mebibytes(idle, Growth.IdleSample::serverRssBytes));
			if (idle.stream().allMatch((s) -> s.serverRegisteredBytes() >= 0)) {
				memory.addSeries(curve.contender() + " server registered", counts,
						mebibytes(idle, Growth.IdleSample::serverRegisteredBytes));
			}
			threads.addSeries(curve.contender(), counts, idle.stream().map((s) -> (Number) s.serverThreads()).toList());
		}
		return List.of(memory, threads);
	}

	private static List<Number> mebibytes(List<Growth.IdleSample> idle,
			java.util.function.ToLongFunction<Growth.IdleSample> bytes) {
		return idle.stream().map((s) -> (Number) (Math.max(0, bytes.applyAsLong(s)) / 1048576.0)).toList();
	}

	private static void perContender(List<Measurement> results, List<String> contenders, String scenario, String metric,
			CategoryChart chart, boolean sizes, Path file) throws IOException {
		List<Long> parameters = Reports.parameters(results, scenario);
		if (parameters.isEmpty()) {
			return;
		}
		List<String> labels = parameters.stream().map((p) -> sizes ? Reports.size(p) : String.valueOf(p)).toList();
		double smallest = Double.MAX_VALUE;
		for (String c : contenders) {
			List<Number> values = new ArrayList<>();
			for (long p : parameters) {
				double value = Target.find(results, c, scenario, p, metric).orElse(0.0);
				values.add(value);
				if (value > 0) {
					smallest = Math.min(smallest, value);
				}
			}
			// A contender not measured in this case has no bars; a logarithmic axis cannot show 0.
			if (values.stream().allMatch((v) -> v.doubleValue() > 0)) {
				chart.addSeries(c, labels, values);
			}
		}
		if (chart.getSeriesMap().isEmpty()) {
			return;
		}
		// Bars start at the axis floor; a logarithmic axis needs a positive one: the power of
		// ten below the smallest figure.
		chart.getStyler().setYAxisMin(floorPowerOfTen(smallest));
		save(chart, file);
	}

	private static double floorPowerOfTen(double value) {
		return Math.pow(10, Math.floor(Math.log10(value)));
	}

	private static CategoryChart chart(String title, String x, String y, boolean logarithmic) {
		CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x)
			.yAxisTitle(y)
			.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setYAxisLogarithmic(logarithmic);
		chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(14f));
		return chart;
	}

	private static XYChart xyChart(String title, String x, String y) {
		XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(14f));
		return chart;
	}

	private static void save(XYChart chart, Path file) throws IOException {
		BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
	}

	private static void save(CategoryChart chart, Path file) throws IOException {
		BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
	}

}
