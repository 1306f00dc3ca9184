package io.rpcrdma.conformance;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints, when a test run ends, a banner listing every {@code conformance}- or
 * {@code interop}-tagged test that was skipped and why (a missing third-party tool, or an
 * interop lab that could not be built or booted). Registered through {@code META-INF/services}, so it runs in every
 * module whose tests see the core test-jar.
 * <p>
 * It writes to the process's real standard error rather than {@code System.err}, because
 * surefire redirects test output to report files and the point is that a developer or CI
 * log shows plainly which third-party checks did not run.
 */
public final class ConformanceSkipSummary implements TestExecutionListener {

	private static final Set<TestTag> THIRD_PARTY = Set.of(TestTag.create("conformance"), TestTag.create("interop"));

	private static final PrintStream CONSOLE = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
			StandardCharsets.UTF_8);

	private final List<String> skipped = new CopyOnWriteArrayList<>();

	/**
	 * The process's real standard error, which surefire does not redirect.
	 * @return the console
	 */
	public static PrintStream console() {
		return CONSOLE;
	}

	@Override
	public void executionSkipped(TestIdentifier test, String reason) {
		record(test, reason);
	}

	@Override
	public void executionFinished(TestIdentifier test, TestExecutionResult result) {
		if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
			record(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
		}
	}

	private void record(TestIdentifier test, String reason) {
		if (test.isTest() && test.getTags().stream().anyMatch(THIRD_PARTY::contains)) {
			this.skipped.add(test.getLegacyReportingName() + " in " + test.getParentId().map(ConformanceSkipSummary::className).orElse("?")
					+ ": " + reason);
		}
	}

	private static String className(String uniqueId) {
		int start = uniqueId.lastIndexOf("[class:");
		return (start < 0) ? uniqueId : uniqueId.substring(start + 7, uniqueId.indexOf(']', start));
	}

	@Override
	public void testPlanExecutionFinished(TestPlan testPlan) {
		if (this.skipped.isEmpty()) {
			return;
		}
		String rule = "!".repeat(100);
		CONSOLE.println(rule);
		CONSOLE.println("!!! " + this.skipped.size() + " CONFORMANCE/INTEROP TEST(S) NOT RUN:");
		this.skipped.forEach((line) -> CONSOLE.println("!!!   " + line));
		CONSOLE.println("!!! Run .ci/run (installs tshark, QEMU and friends) or see README 'Conformance tests' and docs/interop.md.");
		CONSOLE.println(rule);
	}

}
