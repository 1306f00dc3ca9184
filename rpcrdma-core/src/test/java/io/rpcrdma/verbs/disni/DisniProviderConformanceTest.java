package io.rpcrdma.verbs.disni;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.conformance.ProviderConformanceKit;

/**
 * Runs the provider conformance kit against the {@code disni} provider on this machine's
 * RDMA device, both "hosts" on the same device. On a machine without DiSNI (no libdisni,
 * no device...) the whole class is skipped in its class-level hook, with detection's
 * message as the reason, so no test of the kit runs or fails there.
 * <p>
 * The condition makes JUnit report the class as skipped with the reason; the assumption
 * in {@link #requireDisni()} stays as the guard should the condition not be consulted.
 * <p>
 * System properties: {@code rpcrdma.disni.test-address} picks the interface address (else
 * the first RDMA interface), {@code rpcrdma.disni.test-completion-mode} is {@code event}
 * or {@code busy-poll}. See docs/hardware.md for running it, on Soft-RoCE too.
 */
@ExtendWith(DisniProviderConformanceTest.RequiresDisni.class)
class DisniProviderConformanceTest extends ProviderConformanceKit {

	private static InetAddress address;

	@BeforeAll
	static void requireDisni() throws UnknownHostException {
		DisniDetection detection = DisniDetection.detect(DisniEnvironment.system());
		if (!detection.isAvailable()) {
			System.out.println("DisniProviderConformanceTest skipped: " + detection.summary());
		}
		assumeTrue(detection.isAvailable(), () -> "No RDMA through DiSNI here: " + detection.summary());
		String configured = System.getProperty("rpcrdma.disni.test-address");
		if (configured != null && !configured.isBlank()) {
			address = InetAddress.getByName(configured.trim());
		}
		else {
			RdmaInterfaces.Selection selection = RdmaInterfaces.system().firstAddress().orElse(null);
			assumeTrue(selection != null, "The RDMA devices " + detection.devices()
					+ " have no network interface with an IPv4 address; set -Drpcrdma.disni.test-address");
			address = selection.address();
		}
	}

	@Override
	protected RdmaProvider openProvider() {
		RdmaProviderConfig config = RdmaProviderConfig.defaults()
			.with(DisniSettings.LOCAL_ADDRESS, address.getHostAddress())
			.with(DisniSettings.COMPLETION_MODE, System.getProperty("rpcrdma.disni.test-completion-mode", "event"));
		return RdmaProviders.open(DisniProviderFactory.NAME, config);
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(address, 0);
	}

	/**
	 * Skips the class, with detection's message, where DiSNI cannot run.
	 */
	static final class RequiresDisni implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			DisniDetection detection = DisniDetection.detect(DisniEnvironment.system());
			return detection.isAvailable() ? ConditionEvaluationResult.enabled("DiSNI is available")
					: ConditionEvaluationResult.disabled("No RDMA through DiSNI here: " + detection.summary());
		}

	}

}
