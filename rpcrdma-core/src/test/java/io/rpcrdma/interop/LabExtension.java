package io.rpcrdma.interop;

import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

import io.rpcrdma.conformance.ConformanceSkipSummary;

/**
 * Resolves {@link LabGuest} parameters with the one guest of this test run, booting it on
 * first use, and {@link GuestJava} parameters with Java in that guest, made ready on first use
 * (the classpath is staged once per run). Both live in the root context's store, so JUnit
 * closes the guest (stops QEMU) when the run ends, whatever the tests did. When the lab, or
 * a JDK for the guest, cannot be had, every test that asks for it is skipped with the
 * reason, printed loudly once.
 */
final class LabExtension implements BeforeEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LabExtension.class);

	/**
	 * Skips the test before JUnit resolves its parameters: an abort thrown while resolving
	 * would be reported as an error, not as a skip.
	 */
	@Override
	public void beforeEach(ExtensionContext context) {
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
