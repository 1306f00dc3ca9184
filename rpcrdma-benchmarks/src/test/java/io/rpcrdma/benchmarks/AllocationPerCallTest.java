package io.rpcrdma.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The allocation target of a small call (under 256 bytes per call on the client, all client
 * threads counted, the server in a child JVM), checked with the same exact count the
 * {@link AllocationPerCall} benchmark prints, so that a change that brings allocation back to
 * the call path fails the build rather than only a benchmark run.
 */
class AllocationPerCallTest {

	@Test
	void aSmallCallAllocatesUnder256BytesOnTheClient() throws Exception {
		Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
				&& bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled(),
				"this JVM does not count allocated bytes per thread");

		AllocationPerCall.Figures figures = AllocationPerCall.measure(5_000);

		System.out.println("client bytes per call: " + figures);
		assertThat(figures.serviceCall()).as("bytes per call through a service proxy").isLessThan(256);
		assertThat(figures.rpcCall()).as("bytes per call through RpcClientPool's future API").isLessThan(256);
		assertThat(figures.transportCall()).as("bytes per call straight through the transport").isLessThan(64);
	}

	/**
	 * The server's share of a small service call, all threads of the server's JVM counted (the
	 * client in a child JVM): about 400 bytes (docs/performance.md, "Responder"), 1,533 before
	 * its chunk-less fast path and the dispatcher's work.
	 */
	@Test
	void aSmallServiceCallAllocatesUnder512BytesOnTheServer() throws Exception {
		Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
				&& bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled(),
				"this JVM does not count allocated bytes per thread");

		long server = AllocationPerCall.measureServer(5_000);

		System.out.println("server bytes per call: " + server);
		assertThat(server).as("bytes the server allocates per small service call").isLessThan(512);
	}

}
