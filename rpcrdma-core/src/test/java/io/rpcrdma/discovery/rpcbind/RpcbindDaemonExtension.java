package io.rpcrdma.discovery.rpcbind;

import java.io.IOException;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

import io.rpcrdma.conformance.ConformanceSkipSummary;

/**
 * Resolves {@link RpcbindDaemon} parameters with the one rpcbind of this test run, started on
 * first use and stopped by JUnit when the run ends. When rpcbind cannot be had, every test
 * that asks for it is skipped with one loud line saying what is missing; when an rpcbind was
 * already running, one loud line says it is reused.
 */
public final class RpcbindDaemonExtension implements BeforeEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(RpcbindDaemonExtension.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		if (daemon(context) instanceof String unavailable) {
			throw new TestAbortedException(unavailable);
		}
	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		return parameter.getParameter().getType() == RpcbindDaemon.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		return daemon(context);
	}

	private static Object daemon(ExtensionContext context) {
		return context.getRoot().getStore(NAMESPACE).computeIfAbsent(RpcbindDaemon.class, (key) -> start(), Object.class);
	}

	private static Object start() {
		try {
			RpcbindDaemon daemon = RpcbindDaemon.start();
			if (!daemon.startedHere()) {
				ConformanceSkipSummary.console()
					.println("!!! rpcbind already answers on 127.0.0.1:111 (not started by the tests): reusing it;"
							+ " the tests register transient program numbers and remove them again");
			}
			return daemon;
		}
		catch (RpcbindDaemon.DaemonUnavailableException ex) {
			ConformanceSkipSummary.console().println("!!! CONFORMANCE SKIPPED: " + ex.getMessage());
			return ex.getMessage();
		}
		catch (IOException ex) {
			throw new IllegalStateException("rpcbind did not start: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting rpcbind", ex);
		}
	}

}
