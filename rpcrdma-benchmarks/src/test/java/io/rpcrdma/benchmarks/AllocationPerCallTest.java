package io.rpcrdma.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The allocation target of a small call (under 256 bytes per call on the client, all client
 * threads counted, the server in a child JVM), checked with the same exact count the
 * {@link AllocationPerCall} benchmark prints, so that a change that brings allocation back to
 * the call path fails the build rather than only a benchmark run.
 * <p>
 * Each side is measured in a JVM of its own, started for it: in the test JVM, the classes the
 * call path shares with tests run before (the server's, the comparison's) carry those tests'
 * type profiles, and the JIT then sometimes compiles the client's call path without removing
 * its allocations (CI once read 311 B where a fresh JVM reads about 150 B).
 */
class AllocationPerCallTest {

	private static final Pattern CLIENT = Pattern
		.compile("client bytes per call: rpcCall (\\d+), serviceCall (\\d+), transportCall (\\d+)");

	private static final Pattern SERVER = Pattern.compile("server bytes per call: (\\d+)");

	@BeforeEach
	void countsAllocationPerThread() {
		Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
				&& bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled(),
				"this JVM does not count allocated bytes per thread");
	}

	@Test
	void aSmallCallAllocatesUnder256BytesOnTheClient() throws Exception {
		Matcher figures = measureInFreshJvm("client", CLIENT);

		assertThat(Long.parseLong(figures.group(2))).as("bytes per call through a service proxy").isLessThan(256);
		assertThat(Long.parseLong(figures.group(1))).as("bytes per call through RpcClientPool's future API")
			.isLessThan(256);
		assertThat(Long.parseLong(figures.group(3))).as("bytes per call straight through the transport")
			.isLessThan(64);
	}

	/**
	 * The server's share of a small service call, all threads of the server's JVM counted (the
	 * client in a child JVM): about 400 bytes (docs/performance.md, "Responder"), 1,533 before
	 * its chunk-less fast path and the dispatcher's work.
	 */
	@Test
	void aSmallServiceCallAllocatesUnder512BytesOnTheServer() throws Exception {
		Matcher figures = measureInFreshJvm("server", SERVER);

		assertThat(Long.parseLong(figures.group(1))).as("bytes the server allocates per small service call")
			.isLessThan(512);
	}

	private static Matcher measureInFreshJvm(String side, Pattern figures) throws IOException, InterruptedException {
		Path log = Files.createTempFile("allocation-per-call-" + side, ".log");
		String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
		Process child = new ProcessBuilder(List.of(java, "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-cp",
				System.getProperty("java.class.path"), AllocationPerCall.class.getName(), "5000", side))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		try {
			// A file rather than a pipe, so that a hung child ends at the deadline, not in a read.
			boolean ended = child.waitFor(120, TimeUnit.SECONDS);
			String output = Files.readString(log, StandardCharsets.UTF_8);
			System.out.println(output);
			assertThat(ended).as("the measuring JVM ends within 120 s; its output:%n%s", output).isTrue();
			assertThat(child.exitValue()).as("exit status of the measuring JVM; its output:%n%s", output).isZero();
			Matcher matcher = figures.matcher(output);
			assertThat(matcher.find()).as("the measuring JVM prints its figures; its output:%n%s", output).isTrue();
			return matcher;
		}
		finally {
			child.destroyForcibly();
			Files.deleteIfExists(log);
		}
	}

}
