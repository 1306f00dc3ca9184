package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rpcrdma.conformance.ConformanceSkipSummary;

/**
 * Java in the lab guest: classes of this build run in a guest JVM from the host's JDK, see
 * the guest kernel and its RDMA devices, and report back exit status, output and JUnit
 * results.
 */
@InteropLab
class LabGuestJavaTest {

	private static final Duration TIMEOUT = Duration.ofMinutes(3);

	@Test
	void aMainClassOfTheTestTreeRunsInTheGuestAndSeesItsKernel(LabGuest guest, GuestJava java) {
		// Written in the guest's /tmp only: the probe can read it only there.
		String token = UUID.randomUUID().toString();
		guest.run("echo " + token + " > " + GuestJavaProbe.TOKEN);
		long started = System.nanoTime();
		GuestCommandResult probe = java.runJava(GuestJavaProbe.class.getName(), List.of(), List.of(), TIMEOUT).orThrow();
		report("probe main", started);
		String guestKernel = guest.run("uname -r").trim();
		assertThat(probe.output()).contains("token=" + token)
			.contains("os.version=" + guestKernel)
			.contains("java.home=" + java.javaHome())
			.contains("siw0=true");
	}

	@Test
	void theRunnerReportsPassedAbortedAndDisabledTestsOfAClassRunInTheGuest(GuestJava java) {
		long started = System.nanoTime();
		GuestTestSummary summary = java.runTests(List.of(GuestRunnerSample.class.getName()),
				List.of("-D" + GuestRunnerSample.PROPERTY + "=from the host"), TIMEOUT);
		report("test runner, one class", started);
		assertThat(summary.run().exitStatus()).as("%s", summary.run().output()).isZero();
		assertThat(summary).extracting(GuestTestSummary::found, GuestTestSummary::succeeded, GuestTestSummary::skipped,
				GuestTestSummary::failed, GuestTestSummary::aborted)
			.containsExactly(3, 1, 1, 0, 1);
		assertThat(summary.details("ABORTED")).singleElement()
			.asString()
			.contains("GuestRunnerSample#isAbortedByAnAssumption()")
			.contains("the sample's assumption does not hold");
		assertThat(summary.details("SKIPPED")).singleElement()
			.asString()
			.contains("GuestRunnerSample#isDisabled()")
			.contains("the sample's disabled test");
	}

	@Test
	void aTestFailingInTheGuestFailsTheRunWithItsReason(GuestJava java) {
		GuestTestSummary summary = java.runTests(
				List.of(GuestRunnerSample.Failing.class.getName(),
						GuestRunnerSample.class.getName() + "#seesTheGuestsSoftIwarpDeviceAndTheHostsProperty"),
				List.of(), TIMEOUT);
		assertThat(summary.run().exitStatus()).isEqualTo(1);
		// The property was not passed this time, so the selected method fails too.
		assertThat(summary).extracting(GuestTestSummary::found, GuestTestSummary::succeeded, GuestTestSummary::failed)
			.containsExactly(2, 0, 2);
		assertThat(summary.details("FAILED")).anySatisfy((line) -> assertThat(line)
			.contains("GuestRunnerSample$Failing#failsOnPurpose()")
			.contains("the sample's failing assertion"));
		// The stack trace went to standard error, which comes back too.
		assertThat(summary.run().output()).contains("at io.rpcrdma.interop.GuestRunnerSample$Failing.failsOnPurpose");
	}

	@Test
	void aFailingMainComesBackWithItsExitStatusAndException(GuestJava java) {
		GuestCommandResult failed = java.runJava(GuestJavaProbe.class.getName(), List.of(), List.of("fail"), TIMEOUT);
		assertThat(failed.exitStatus()).isEqualTo(1);
		assertThat(failed.output()).contains("IllegalStateException: the probe was asked to fail");
		GuestCommandResult exited = java.runJava("io.rpcrdma.interop.NoSuchMain", List.of(), List.of(), TIMEOUT);
		assertThat(exited.exitStatus()).isEqualTo(1);
		assertThat(exited.output()).contains("io.rpcrdma.interop.NoSuchMain");
	}

	@Test
	void aSharedHostFileIsSeenInTheGuestUnderItsName(LabGuest guest, GuestJava java, @TempDir Path temp)
			throws IOException {
		Path library = Files.writeString(temp.resolve("libexample.so"), "not really a library");
		Path shared = java.share(library);
		assertThat(shared).hasFileName("libexample.so").startsWith(java.stagingDirectory());
		assertThat(guest.run("cat '" + shared + "'")).isEqualTo("not really a library");
		Path directory = Files.createDirectories(temp.resolve("lib"));
		Files.writeString(directory.resolve("a.txt"), "a");
		Path sharedDirectory = java.share(directory);
		assertThat(guest.run("ls '" + sharedDirectory + "'").trim()).isEqualTo("a.txt");
	}

	@Test
	void theGuestJvmTakesTheRunnersClassesFromTheArchiveTheHostMade(LabGuest guest, GuestJava java) {
		assertThat(java.defaultJvmArgs()).anyMatch((option) -> option.startsWith("-XX:SharedArchiveFile="));
		String log = "/tmp/runner-classes.log";
		// Without arguments the runner only prints its usage: enough to load its class.
		GuestCommandResult usage = java.runJava(GuestTestRunner.class.getName(),
				List.of("-Xlog:class+load=info:file=" + log), List.of(), TIMEOUT);
		assertThat(usage.exitStatus()).isEqualTo(2);
		assertThat(guest.run("grep -F 'io.rpcrdma.interop.GuestTestRunner ' " + log))
			.contains("source: shared objects file (top)");
	}

	private static void report(String what, long started) {
		ConformanceSkipSummary.console().println("lab: " + what + " in the guest took "
				+ (System.nanoTime() - started) / 1_000_000 + " ms");
	}

}
