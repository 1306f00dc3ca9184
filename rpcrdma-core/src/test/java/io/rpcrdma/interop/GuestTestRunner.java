package io.rpcrdma.interop;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs JUnit Jupiter test classes in the lab guest's JVM ({@link GuestJava#runTests}) and
 * reports in lines the host parses ({@link GuestTestSummary}):
 * <pre>
 * GUEST-TEST FAILED io.rpcrdma.SomeTest#method(): java.lang.AssertionError: ...
 * GUEST-TEST ABORTED io.rpcrdma.SomeTest#other(): Assumption failed: ...
 * GUEST-TEST SKIPPED io.rpcrdma.OtherTest: No RDMA through DiSNI here: ...
 * GUEST-TESTS found=3 succeeded=1 skipped=0 failed=1 aborted=1
 * </pre>
 * {@code found} counts the tests discovered, each invocation of a parameterized test too;
 * {@code skipped} the tests not run because they or their class were disabled; {@code failed}
 * and {@code aborted} the tests and the containers (a class whose {@code @BeforeAll} threw or
 * assumed) that failed or were aborted. The stack traces of failures go to standard error. Only
 * the Jupiter engine runs (jqwik's would start for nothing). System properties of the JVM reach
 * the tests, and JUnit reads them as configuration parameters.
 * <p>
 * Usage: {@code GuestTestRunner <class>[#<method>]...}. Exit status: 0 when nothing failed, 1
 * when something failed, 2 when no test was found (a misspelt class must not pass).
 */
public final class GuestTestRunner {

	/** The start of the summary line. */
	public static final String SUMMARY = "GUEST-TESTS";

	/** The start of a line about one test or container. */
	public static final String DETAIL = "GUEST-TEST";

	private GuestTestRunner() {
	}

	public static void main(String[] args) {
		if (args.length == 0) {
			System.err.println("usage: GuestTestRunner <class>[#<method>]...");
			System.exit(2);
		}
		List<DiscoverySelector> selectors = new ArrayList<>();
		for (String arg : args) {
			selectors.add(arg.contains("#") ? DiscoverySelectors.selectMethod(arg) : DiscoverySelectors.selectClass(arg));
		}
		LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
			.selectors(selectors)
			.filters(EngineFilter.includeEngines("junit-jupiter"))
			.build();
		Launcher launcher = LauncherFactory.create();
		Counts counts = new Counts(System.out, System.err);
		launcher.execute(request, counts);
		System.out.println(counts.summary());
		System.out.flush();
		System.exit((counts.failed.get() > 0) ? 1 : (counts.found.get() == 0) ? 2 : 0);
	}

	/**
	 * Counts as the summary line says, and prints a line for each failure, abort and skip.
	 */
	private static final class Counts implements TestExecutionListener {

		private final PrintStream out;

		private final PrintStream err;

		private final AtomicInteger found = new AtomicInteger();

		private final AtomicInteger succeeded = new AtomicInteger();

		private final AtomicInteger skipped = new AtomicInteger();

		private final AtomicInteger failed = new AtomicInteger();

		private final AtomicInteger aborted = new AtomicInteger();

		private TestPlan plan;

		Counts(PrintStream out, PrintStream err) {
			this.out = out;
			this.err = err;
		}

		@Override
		public void testPlanExecutionStarted(TestPlan testPlan) {
			this.plan = testPlan;
			this.found.set((int) testPlan.countTestIdentifiers(TestIdentifier::isTest));
		}

		@Override
		public void dynamicTestRegistered(TestIdentifier test) {
			// Invocations of parameterized tests and dynamic tests are not in the plan at the start.
			if (test.isTest()) {
				this.found.incrementAndGet();
			}
		}

		@Override
		public void executionSkipped(TestIdentifier test, String reason) {
			// A disabled class skips its tests without telling about each of them.
			long tests = test.isTest() ? 1 : this.plan.getDescendants(test).stream().filter(TestIdentifier::isTest).count();
			this.skipped.addAndGet((int) tests);
			this.out.println(DETAIL + " SKIPPED " + name(test) + ": " + oneLine(reason));
		}

		@Override
		public void executionFinished(TestIdentifier test, TestExecutionResult result) {
			switch (result.getStatus()) {
				case SUCCESSFUL -> {
					if (test.isTest()) {
						this.succeeded.incrementAndGet();
					}
				}
				case ABORTED -> {
					this.aborted.incrementAndGet();
					this.out.println(DETAIL + " ABORTED " + name(test) + ": " + reason(result));
				}
				case FAILED -> {
					this.failed.incrementAndGet();
					this.out.println(DETAIL + " FAILED " + name(test) + ": " + reason(result));
					result.getThrowable().ifPresent((failure) -> {
						this.err.println("Failure of " + name(test) + ":");
						failure.printStackTrace(this.err);
					});
				}
			}
		}

		String summary() {
			return SUMMARY + " found=" + this.found + " succeeded=" + this.succeeded + " skipped=" + this.skipped
					+ " failed=" + this.failed + " aborted=" + this.aborted;
		}

		/** {@code a.B#m(LabGuest)}, {@code a.B#m [1] off} for an invocation of a parameterized test, {@code a.B}. */
		private static String name(TestIdentifier test) {
			TestSource source = test.getSource().orElse(null);
			String reported = test.getLegacyReportingName();
			if (source instanceof MethodSource method) {
				String name = method.getClassName() + "#" + method.getMethodName();
				return reported.startsWith(method.getMethodName() + "(")
						? name + reported.substring(method.getMethodName().length()) : name + " " + reported;
			}
			return (source instanceof ClassSource type) ? type.getClassName() : test.getDisplayName();
		}

		private static String reason(TestExecutionResult result) {
			return result.getThrowable().map(Throwable::toString).map(GuestTestRunner::oneLine).orElse("no reason given");
		}

	}

	private static String oneLine(String text) {
		return (text == null) ? "" : text.replaceAll("\\s*\\R\\s*", " ");
	}

}
