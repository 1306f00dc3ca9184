package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.rpcrdma.interop.GuestCommandResult;
import io.rpcrdma.interop.GuestJava;
import io.rpcrdma.interop.InteropLab;
import io.rpcrdma.interop.LabGuest;
import io.rpcrdma.interop.Libdisni;

/**
 * The demo, all in one process, over the {@code disni} provider on a real verbs device: Linux's
 * Soft-RoCE ({@code rxe0}) in the interop lab's guest, through rpcrdma's own libdisni.so
 * (docs/interop.md, "DiSNI on Linux's devices"; docs/hardware.md, "The demo on a device"). The
 * workload checks every object it reads back against the CRC-32C of what it stored; actuator,
 * read inside the guest, counts the calls by conveyance.
 */
@InteropLab
class DemoOnDisniLabTest {

	/** rxe0's address in the guest (docs/interop.md). */
	private static final String RXE0 = "10.77.0.1";

	private static final String ACTUATOR = "http://127.0.0.1:18080/actuator";

	@Test
	void theWorkloadRunsOverDisniOnSoftRoceAndActuatorCountsItsCalls(LabGuest guest, GuestJava java) {
		Path library = Libdisni.build(Path.of("target", "interop-lab").toAbsolutePath());
		List<String> jvmArgs = List.of("-Djava.library.path=" + java.share(library).getParent(), "--add-exports",
				"java.base/sun.nio.ch=ALL-UNNAMED", "-Xmx512m", "-XX:MaxDirectMemorySize=900m");
		List<String> args = List.of("--rpcrdma.provider=disni", "--rpcrdma.provider-settings.disni.local-address=" + RXE0,
				"--rpcrdma.server.address=" + RXE0, "--server.port=18080", "--demo.workload.duration=3m",
				"--demo.workload.max-calls=300", "--demo.workload.threads=2", "--demo.workload.largest-object=2MB",
				"--demo.store.max-object-size=4MB");
		GuestJava.Job demo = java.start(DemoApplication.class.getName(), jvmArgs, args, Duration.ofMinutes(10));
		try {
			demo.awaitLine("Still serving", Duration.ofMinutes(6));
			String health = guest.run("wget -qO- " + ACTUATOR + "/health");
			String readChunkCalls = guest
				.run("wget -qO- '" + ACTUATOR + "/metrics/rpcrdma.client.calls?tag=conveyance:read-chunk'");
			String writeChunkCalls = guest
				.run("wget -qO- '" + ACTUATOR + "/metrics/rpcrdma.client.calls?tag=conveyance:write-chunk'");
			String endpoint = guest.run("wget -qO- " + ACTUATOR + "/rpcrdma");
			GuestCommandResult stopped = demo.stop(Duration.ofMinutes(1));
			String printed = stopped.output();
			assertThat(printed).contains("Object store served over disni at " + RXE0 + ":")
				.containsPattern("\\d+ calls in [\\d.]+ s over disni, 2 client threads")
				.doesNotContain("error:");
			long readChunks = counter(printed, "Read chunks advertised \\(put contents\\)");
			long writeChunks = counter(printed, "Write chunks filled \\(get and read contents\\)");
			assertThat(readChunks).isPositive();
			assertThat(writeChunks).isPositive();
			assertThat(health).contains("\"rpcrdma\":{\"details\":{\"provider\":\"disni\"");
			assertThat(endpoint).contains("\"provider\":\"disni\"").contains("ObjectStore");
			// Every put the workload made went in a Read chunk, every get and read came back in a
			// Write chunk; actuator's counts include the calls before the workload's window.
			assertThat(count(readChunkCalls)).isGreaterThanOrEqualTo(readChunks);
			assertThat(count(writeChunkCalls)).isGreaterThanOrEqualTo(writeChunks);
		}
		finally {
			demo.kill();
		}
	}

	private static long counter(String printed, String label) {
		Matcher matcher = Pattern.compile(label + "\\s+(\\d+)").matcher(printed);
		assertThat(matcher.find()).as(label + " in\n" + printed).isTrue();
		return Long.parseLong(matcher.group(1));
	}

	/** The COUNT statistic of an actuator metric's JSON. */
	private static long count(String metric) {
		Matcher matcher = Pattern.compile("\"statistic\":\"COUNT\",\"value\":([\\d.E]+)").matcher(metric);
		assertThat(matcher.find()).as(metric).isTrue();
		return (long) Double.parseDouble(matcher.group(1));
	}

}
