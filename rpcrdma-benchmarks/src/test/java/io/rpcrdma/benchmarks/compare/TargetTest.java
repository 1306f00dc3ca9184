package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class TargetTest {

	@Test
	void ratiosAreTakenFromTheSameRunAgainstTheSocketAndGrpc() {
		List<Measurement> results = List.of(
				new Measurement(Measurement.LATENCY, "socket", 64, "p50", 20, "us", 100),
				new Measurement(Measurement.LATENCY, "grpc-java", 64, "p50", 100, "us", 100),
				new Measurement(Measurement.LATENCY, "rpcrdma-siw", 64, "p50", 25, "us", 100),
				new Measurement(Measurement.THROUGHPUT, "grpc-java", 16, "calls/s", 10_000, "calls/s", 100),
				new Measurement(Measurement.THROUGHPUT, "rpcrdma-siw", 16, "calls/s", 20_000, "calls/s", 100),
				new Measurement(Measurement.BULK_ARGUMENT, "socket", 1 << 20, "MB/s", 1000, "MB/s", 100),
				new Measurement(Measurement.BULK_ARGUMENT, "rpcrdma-siw", 1 << 20, "MB/s", 800, "MB/s", 100),
				new Measurement(Measurement.BULK_RESULT, "socket", 64 << 10, "MB/s", 1000, "MB/s", 100),
				new Measurement(Measurement.BULK_RESULT, "grpc-java", 64 << 10, "MB/s", 400, "MB/s", 100),
				new Measurement(Measurement.BULK_RESULT, "rpcrdma-siw", 64 << 10, "MB/s", 450, "MB/s", 100));

		// One round: the interquartile range is the ratio itself.
		List<Target> targets = Target.evaluate(List.of(results), "rpcrdma-siw");

		// No gRPC figure for 1 MiB, no 1 MiB results and no 64 KiB arguments: those targets are
		// left out.
		assertThat(targets).extracting(Target::description)
			.containsExactly("64-byte p50 latency: rpcrdma-siw / socket", "64-byte p50 latency: rpcrdma-siw / grpc-java",
					"16-thread throughput: rpcrdma-siw / grpc-java", "1 MiB argument MB/s: rpcrdma-siw / socket",
					"64 KiB result MB/s: rpcrdma-siw / socket", "64 KiB result MB/s: rpcrdma-siw / grpc-java");
		assertThat(targets).extracting(Target::ratio).containsExactly(1.25, 0.25, 2.0, 0.8, 0.45, 1.125);
		assertThat(targets).extracting(Target::met).containsExactly(true, true, false, true, false, true);
		assertThat(targets.get(0).boundText()).isEqualTo("≤ 1.50");
		assertThat(targets.get(2).boundText()).isEqualTo("≥ 3.00");
	}

}
