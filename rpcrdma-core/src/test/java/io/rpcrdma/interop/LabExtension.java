package io.rpcrdma.interop;

import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

import io.rpcrdma.conformance.ConformanceSkipSummary;

/**
 * Resolves {@link LabGuest} parameters with the one guest of this test run, booting it on
 * first use, and {@link GuestJava} parameters with Java in that guest, made ready on first use
 * (the classpath is staged once per run). Both live in the root context's store, so JUnit
 * closes the guest (stops QEMU) when the run ends, whatever the tests did. When the lab, or
 * a JDK for the guest, cannot be had, every test that asks for it is skipped with the
 * reason, printed loudly once.
 * <p>
 * A guest whose NIC stalled ({@link GuestNetworkStalledException}: QEMU's emulated virtio-net
 * stops taking what the guest sends, which happens now and then under TCG and which the guest
 * never recovers from) would fail every test after it on timeouts. When a test fails while
 * the guest's console has reported that stall, the lab stops that guest, the test is aborted
 * with the console's line (and its own failure as the cause), one loud line says so, and the
 * next test boots a new guest. A failure without that report stays a failure.
 */
final class LabExtension implements BeforeEachCallback, ParameterResolver, TestExecutionExceptionHandler,
		LifecycleMethodExecutionExceptionHandler {

	private static final String STALLED = "guest network stalled";

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LabExtension.class);

	/**
	 * Skips the test before JUnit resolves its parameters: an abort thrown while resolving
	 * would be reported as an error, not as a skip.
	 */
	@Override
	public void beforeEach(ExtensionContext context) {
		String stall = stopIfStalled(context);
		if (stall != null) {
			// It stalled after the last test ended (or while it passed): start afresh.
			ConformanceSkipSummary.console().println("!!! INTEROP: the lab guest's NIC stalled after the last test ('"
					+ stall + "'); that guest is stopped, " + context.getDisplayName() + " boots another");
		}
		if (lab(context) instanceof Unavailable unavailable) {
			throw new TestAbortedException("interop lab unavailable: " + unavailable.reason());
		}
		boolean wantsJava = context.getTestMethod()
			.map((method) -> Arrays.asList(method.getParameterTypes()).contains(GuestJava.class))
			.orElse(false);
		if (wantsJava && java(context) instanceof Unavailable unavailable) {
			throw new TestAbortedException("Java in the interop lab unavailable: " + unavailable.reason());
		}
	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		Class<?> type = parameter.getParameter().getType();
		return type == LabGuest.class || type == GuestJava.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		return (parameter.getParameter().getType() == GuestJava.class) ? java(context) : lab(context);
	}

	@Override
	public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
		throw abortIfStalled(context, thrown);
	}

	@Override
	public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable thrown)
			throws Throwable {
		throw abortIfStalled(context, thrown);
	}

	@Override
	public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable thrown)
			throws Throwable {
		throw abortIfStalled(context, thrown);
	}

	/**
	 * What a failure becomes: an abort if the guest's NIC stalled during this test (the guest is
	 * then stopped and forgotten, so that the next test boots another), else the failure itself.
	 */
	private static Throwable abortIfStalled(ExtensionContext context, Throwable thrown) {
		ExtensionContext.Store test = context.getStore(NAMESPACE);
		String stall = test.get(STALLED, String.class);
		if (stall == null) {
			stall = stopIfStalled(context);
			if (stall == null) {
				return thrown;
			}
			// An @AfterEach that cleans up in the stopped guest fails too: it is part of this abort.
			test.put(STALLED, stall);
			ConformanceSkipSummary.console().println("!!! INTEROP ABORTED: " + context.getDisplayName()
					+ ": the lab guest's NIC stalled ('" + stall + "'); that guest is stopped, the next test boots another");
		}
		return new TestAbortedException("the lab guest's NIC stalled ('" + stall
				+ "', a fault of QEMU's emulated virtio-net under TCG): this test could not run to its end", thrown);
	}

	/**
	 * Stops and forgets the guest if its NIC has stalled.
	 * @return the console's report of the stall, or {@code null} if there was none (or no guest)
	 */
	private static String stopIfStalled(ExtensionContext context) {
		ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
		if (!(root.get(LabGuest.class) instanceof LabGuest guest) || guest.networkStall().isEmpty()) {
			return null;
		}
		root.remove(GuestJava.class);
		root.remove(LabGuest.class);
		guest.close();
		return guest.networkStall().get().strip();
	}

	private static Object lab(ExtensionContext context) {
		return context.getRoot().getStore(NAMESPACE).computeIfAbsent(LabGuest.class, (key) -> boot(), Object.class);
	}

	private static Object java(ExtensionContext context) {
		return context.getRoot()
			.getStore(NAMESPACE)
			.computeIfAbsent(GuestJava.class, (key) -> openJava((LabGuest) lab(context)), Object.class);
	}

	private static Path workDirectory() {
		return Path.of("target", "interop-lab").toAbsolutePath();
	}

	private static Object boot() {
		Path work = workDirectory();
		try {
			LabGuest guest = LabGuest.boot(LabImage.build(work), work, GuestJava.shares(work));
			ConformanceSkipSummary.console().println("lab: guest up under " + guest.accelerator() + " in "
					+ guest.bootTime().toMillis() + " ms (console: " + guest.consoleLog() + ")");
			return guest;
		}
		catch (LabUnavailableException ex) {
			ConformanceSkipSummary.console().println("!!! INTEROP SKIPPED: " + ex.getMessage());
			return new Unavailable(ex.getMessage());
		}
	}

	private static Object openJava(LabGuest guest) {
		long started = System.nanoTime();
		try {
			GuestJava java = GuestJava.open(guest, workDirectory());
			ConformanceSkipSummary.console().println("lab: Java " + java.javaHome() + " ready in the guest in "
					+ (System.nanoTime() - started) / 1_000_000 + " ms (" + java.preparation() + "; first java -version "
					+ java.versionTime().toMillis() + " ms; JVM options " + java.defaultJvmArgs() + ")");
			return java;
		}
		catch (LabUnavailableException ex) {
			ConformanceSkipSummary.console().println("!!! INTEROP SKIPPED: Java in the guest: " + ex.getMessage());
			return new Unavailable(ex.getMessage());
		}
	}

	/**
	 * Why the lab could not be had, kept so that it is not tried again for every test.
	 *
	 * @param reason what is missing
	 */
	private record Unavailable(String reason) {
	}

}
