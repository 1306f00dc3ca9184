package io.rpcrdma.interop;

/**
 * The lab guest stopped answering after its kernel reported that its NIC's transmit queue
 * timed out ({@code virtio_net ... NETDEV WATCHDOG: transmit queue 0 timed out}): QEMU's
 * emulated virtio-net no longer takes what the guest sends, so nothing reaches the host any
 * more, the agent's answers included. The guest does not recover from it; the lab stops it
 * and boots another for the next test (see {@link LabExtension}).
 */
public final class GuestNetworkStalledException extends LabException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what did not answer
	 * @param consoleLine the guest console's line that reported the stall
	 * @param cause the timeout or refusal seen on the host
	 */
	GuestNetworkStalledException(String message, String consoleLine, Throwable cause) {
		super(message + "; the guest's console reported '" + consoleLine.strip() + "'", cause);
	}

	/**
	 * Whether a line of the guest's console reports a stalled transmit queue.
	 * @param line the line
	 * @return whether it is the kernel's netdev watchdog complaining about a transmit queue
	 */
	static boolean reportedBy(String line) {
		return line.contains("NETDEV WATCHDOG") && line.contains("transmit queue");
	}

}
