package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;

import io.rpcrdma.verbs.ProviderCapabilities;

/**
 * Whether advertised chunks are offered through type 2 memory windows on this device
 * ({@link WindowNatives}): the libdisni loaded has the entry points, they are not switched
 * off, and the device allocates a window (Soft-RoCE does; Linux's soft-iWARP offers none).
 * Then an advertised region is bound to the one queue pair it is offered on under a fresh rkey
 * by a work request, and invalidated by another when its RPC is done: no {@code ibv_reg_mr} per
 * call, and no other connection reaches it (what Linux's xprtrdma gets from fast registration).
 * Otherwise the provider keeps rotation by registration, as with a stock DiSNI.
 *
 * @param missing why windows are not used, empty when they are
 */
record DisniWindows(Optional<String> missing) {

	private static final System.Logger logger = System.getLogger(DisniWindows.class.getName());

	/** The JVM property that switches windows off ({@code false}); on by default. */
	static final String ENABLED_PROPERTY = "rpcrdma.disni.memory-windows";

	/** Windows are not used: the rotation by registration of a stock DiSNI. */
	static final DisniWindows NONE = new DisniWindows(Optional.of("not probed"));

	/**
	 * Validates the result.
	 * @param missing why windows are not used
	 */
	DisniWindows {
		Objects.requireNonNull(missing, "missing");
	}

	/**
	 * What a device can allocate: a window in a scratch protection domain, given back at once.
	 */
	@FunctionalInterface
	interface DeviceProbe {

		/**
		 * Allocates and deallocates one type 2 window.
		 * @throws IOException if the device refuses
		 */
		void allocateOne() throws IOException;

	}

	/**
	 * Decides for one device, and logs the outcome once.
	 * @param device the device's name, for the log
	 * @param version calls {@link WindowNatives#version()} (or stands in for it)
	 * @param probe allocates a window on the device
	 * @return the result
	 */
	static DisniWindows detect(String device, IntSupplier version, DeviceProbe probe) {
		DisniWindows result = decide(device, version, probe);
		if (result.available()) {
			logger.log(Level.INFO, "RDMA device " + device + " offers memory windows: advertised chunks are bound to "
					+ "their connection by a work request, with no registration per call");
		}
		else {
			logger.log(Level.INFO, "RDMA device " + device + ": advertised chunks are rotated by registration (one "
					+ "ibv_reg_mr per advertised chunk): " + result.missing().get());
		}
		return result;
	}

	private static DisniWindows decide(String device, IntSupplier version, DeviceProbe probe) {
		if (!Boolean.parseBoolean(System.getProperty(ENABLED_PROPERTY, "true"))) {
			return new DisniWindows(Optional.of("memory windows are switched off by -D" + ENABLED_PROPERTY + "=false"));
		}
		try {
			int found = version.getAsInt();
			if (found != WindowNatives.VERSION) {
				return new DisniWindows(Optional.of("libdisni's rpcrdma memory-window natives are version " + found
						+ ", this provider needs " + WindowNatives.VERSION + "; rebuild rpcrdma-disni-native"));
			}
		}
		catch (UnsatisfiedLinkError ex) {
			return new DisniWindows(Optional.of("the loaded libdisni lacks rpcrdma's memory-window natives, as a "
					+ "stock DiSNI library does; build rpcrdma-disni-native for memory windows"));
		}
		try {
			probe.allocateOne();
			return new DisniWindows(Optional.empty());
		}
		catch (IOException | RuntimeException ex) {
			return new DisniWindows(Optional.of("the device offers no type 2 memory windows ("
					+ ((ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName()) + ")"));
		}
	}

	/**
	 * Whether advertised regions are offered through windows.
	 * @return {@code true} if so
	 */
	boolean available() {
		return this.missing.isEmpty();
	}

	/**
	 * What a provider with windows can promise: a type 2 window is bound to one queue pair, so
	 * a region offered to a connection is reachable by that connection alone.
	 * @param base the provider's capabilities without windows
	 * @return {@code base}, with connection-scoped regions when available
	 */
	ProviderCapabilities apply(ProviderCapabilities base) {
		if (!available()) {
			return base;
		}
		return new ProviderCapabilities(base.requestPrivateDataVisible(), base.acceptPrivateDataVisible(),
				base.rejectPrivateDataVisible(), base.remoteInvalidation(), base.receiverNotReadyRetry(),
				base.remoteErrorsAtInitiator(), true);
	}

}
