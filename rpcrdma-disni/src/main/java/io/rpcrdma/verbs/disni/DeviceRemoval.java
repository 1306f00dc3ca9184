package io.rpcrdma.verbs.disni;

import java.net.InetSocketAddress;

/**
 * What the provider says when rdma_cm reports {@code RDMA_CM_EVENT_DEVICE_REMOVAL}: the
 * detail its connections fail with, which the transport's callers see in their
 * connection-lost error, and the log lines (docs/troubleshooting.md lists them).
 */
final class DeviceRemoval {

	private DeviceRemoval() {
	}

	/**
	 * The detail of each connection's ERROR and DISCONNECTED events.
	 * @param device the device's name
	 * @return the detail
	 */
	static String detail(String device) {
		return "the RDMA device " + device + " was removed (" + CmEvents.name(CmEvents.DEVICE_REMOVAL) + ")";
	}

	/**
	 * The provider's ERROR line.
	 * @param device the device's name
	 * @param connections the connections it fails
	 * @return the line
	 */
	static String logLine(String device, int connections) {
		return "RDMA provider 'disni': " + detail(device) + "; failing its " + connections
				+ " connection(s), stopping its listeners and releasing everything made on it so that the kernel "
				+ "completes the removal; the provider is closed: open a new one once the device is back";
	}

	/**
	 * A listener's ERROR line.
	 * @param address where it listened
	 * @return the line
	 */
	static String listenerLogLine(InetSocketAddress address) {
		return "The RDMA device of listener " + address + " was removed ("
				+ CmEvents.name(CmEvents.DEVICE_REMOVAL) + "); the listener stops accepting connections";
	}

}
