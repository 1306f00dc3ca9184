package io.rpcrdma.interop;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

import io.rpcrdma.conformance.ConformanceSkipSummary;

/**
 * Resolves {@link LabGuest} parameters with the one guest of this test run, booting it on
 * first use. The guest lives in the root context's store, so JUnit closes it (stops QEMU)
 * when the run ends, whatever the tests did. When the lab cannot be had, every test that
 * asks for it is skipped with the reason, printed loudly once.
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
	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		return parameter.getParameter().getType() == LabGuest.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		return lab(context);
	}

	private static Object lab(ExtensionContext context) {
		return context.getRoot().getStore(NAMESPACE).computeIfAbsent(LabGuest.class, (key) -> boot(), Object.class);
	}

	private static Object boot() {
		Path work = Path.of("target", "interop-lab").toAbsolutePath();
		try {
			LabGuest guest = LabGuest.boot(LabImage.build(work), work, List.of());
			ConformanceSkipSummary.console().println("lab: guest up under " + guest.accelerator() + " in "
					+ guest.bootTime().toMillis() + " ms (console: " + guest.consoleLog() + ")");
			return guest;
		}
		catch (LabUnavailableException ex) {
			ConformanceSkipSummary.console().println("!!! INTEROP SKIPPED: " + ex.getMessage());
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
