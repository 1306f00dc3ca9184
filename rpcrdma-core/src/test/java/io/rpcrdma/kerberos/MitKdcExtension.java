package io.rpcrdma.kerberos;

import java.io.IOException;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

import io.rpcrdma.conformance.ConformanceSkipSummary;

/**
 * Resolves {@link MitKdc} parameters with the one KDC of this test run, started on first use
 * and stopped by JUnit when the run ends. Without MIT Kerberos every test that asks for it is
 * skipped, with one loud line saying what to install.
 */
public final class MitKdcExtension implements BeforeEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MitKdcExtension.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		Object kdc = kdc(context);
		if (kdc instanceof String unavailable) {
			throw new TestAbortedException(unavailable);
		}
		// Before the test's own @BeforeEach methods, which may need it to start a server.
		context.getTestInstance()
			.filter(KdcAware.class::isInstance)
			.ifPresent((instance) -> ((KdcAware) instance).kdc((MitKdc) kdc));
	}

	/** A test that is given the KDC before its {@code @BeforeEach} methods run. */
	public interface KdcAware {

		/**
		 * @param kdc the run's KDC
		 */
		void kdc(MitKdc kdc);

	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		return parameter.getParameter().getType() == MitKdc.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		return kdc(context);
	}

	private static Object kdc(ExtensionContext context) {
		return context.getRoot().getStore(NAMESPACE).computeIfAbsent(MitKdc.class, (key) -> start(), Object.class);
	}

	private static Object start() {
		try {
			return MitKdc.start();
		}
		catch (MitKdc.KdcUnavailableException ex) {
			ConformanceSkipSummary.console().println("!!! CONFORMANCE SKIPPED: " + ex.getMessage());
			return ex.getMessage();
		}
		catch (IOException ex) {
			throw new IllegalStateException("The test KDC did not start: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting the test KDC", ex);
		}
	}

}
