package io.rpcrdma.verbs.disni;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * The RDMA device tests of the {@code disni} provider run on: where DiSNI can run (docs/hardware.md;
 * the interop lab's guest, docs/interop.md) and which address picks the device.
 * <p>
 * System properties: {@code rpcrdma.disni.test-address} picks the interface address (else the
 * first RDMA interface), {@code rpcrdma.disni.test-completion-mode} is {@code event} or
 * {@code busy-poll}.
 */
public final class DisniTestDevice {

	private DisniTestDevice() {
	}

	/**
	 * The address whose interface carries the device under test.
	 * @return the address
	 * @throws IllegalStateException if the RDMA devices have no IPv4 interface and no address is set
	 */
	public static InetAddress address() {
		String configured = System.getProperty("rpcrdma.disni.test-address");
		try {
			if (configured != null && !configured.isBlank()) {
				return InetAddress.getByName(configured.trim());
			}
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException("rpcrdma.disni.test-address=" + configured + " does not resolve", ex);
		}
		return RdmaInterfaces.system()
			.firstAddress()
			.map(RdmaInterfaces.Selection::address)
			.orElseThrow(() -> new IllegalStateException(
					"The RDMA devices have no network interface with an IPv4 address; set -Drpcrdma.disni.test-address"));
	}

	/**
	 * Opens a {@code disni} provider on the device under test.
	 * @return the provider
	 */
	public static RdmaProvider open() {
		RdmaProviderConfig config = RdmaProviderConfig.defaults()
			.with(DisniSettings.LOCAL_ADDRESS, address().getHostAddress())
			.with(DisniSettings.COMPLETION_MODE, System.getProperty("rpcrdma.disni.test-completion-mode", "event"));
		return RdmaProviders.open(DisniProviderFactory.NAME, config);
	}

	/**
	 * Skips a test class, with detection's message printed once, where DiSNI cannot run.
	 */
	public static final class Available implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			DisniDetection detection = DisniDetection.detect(DisniEnvironment.system());
			if (detection.isAvailable()) {
				return ConditionEvaluationResult.enabled("DiSNI is available");
			}
			String reason = "No RDMA through DiSNI here: " + detection.summary();
			System.out.println(context.getRequiredTestClass().getSimpleName() + " skipped: " + detection.summary());
			return ConditionEvaluationResult.disabled(reason);
		}

	}

}
