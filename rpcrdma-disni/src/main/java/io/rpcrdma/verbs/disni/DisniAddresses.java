package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.ref.Reference;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.RdmaCmId;

/**
 * Binding, resolving and reading the addresses of cm ids: IPv4 addresses are bound and resolved
 * through DiSNI 2.1's own calls, IPv6 addresses through rpcrdma's address natives
 * ({@link CmAddressNatives}) when the loaded libdisni has them (detected once), which then also
 * read every id's addresses, of either family. DiSNI 2.1 lays out only a {@code struct sockaddr_in}: with a
 * stock libdisni an IPv6 address is refused with a message saying why, and IPv4 works as before.
 *
 * @param missing why the natives cannot be used, empty when they can
 */
record DisniAddresses(Optional<String> missing) {

	private static final System.Logger logger = System.getLogger(DisniAddresses.class.getName());

	/**
	 * Validates the result.
	 * @param missing why the natives cannot be used
	 */
	DisniAddresses {
		Objects.requireNonNull(missing, "missing");
	}

	/**
	 * The detection for this JVM's libdisni, run once; switched off with the connection-manager
	 * natives ({@link DisniCmExtensions#ENABLED_PROPERTY}).
	 * @return the result
	 */
	static DisniAddresses system() {
		return SystemHolder.INSTANCE;
	}

	/**
	 * Probes the natives: usable when the probe answers {@link CmAddressNatives#VERSION}.
	 * @param version calls {@link CmAddressNatives#version()} (or stands in for it)
	 * @return the result
	 */
	static DisniAddresses detect(IntSupplier version) {
		try {
			int found = version.getAsInt();
			return (found == CmAddressNatives.VERSION) ? new DisniAddresses(Optional.empty())
					: new DisniAddresses(Optional.of("libdisni's rpcrdma address natives are version " + found
							+ ", this provider needs " + CmAddressNatives.VERSION + "; rebuild rpcrdma-disni-native"));
		}
		catch (UnsatisfiedLinkError ex) {
			return new DisniAddresses(Optional.of("the loaded libdisni lacks rpcrdma's address natives ("
					+ ex.getMessage() + "), as a stock DiSNI library does; build rpcrdma-disni-native for IPv6"));
		}
	}

	/**
	 * Whether IPv6 addresses can be used.
	 * @return {@code true} if the natives are present and of this version
	 */
	boolean ipv6() {
		return this.missing.isEmpty();
	}

	/**
	 * Refuses an address this libdisni cannot carry.
	 * @param address a resolved address
	 * @param what what it is for, for the message
	 * @return the address
	 * @throws IllegalArgumentException for an IPv6 address without the natives
	 */
	InetSocketAddress check(InetSocketAddress address, String what) {
		if (!SocketAddressLayout.isIpv4(address) && !ipv6()) {
			throw new IllegalArgumentException("Cannot " + what + " " + address + ": DiSNI 2.1 carries IPv4 addresses "
					+ "only and " + this.missing.get());
		}
		return address;
	}

	/**
	 * {@code rdma_bind_addr}.
	 * @param id the cm id
	 * @param address the address
	 * @throws IOException if it fails
	 */
	void bind(RdmaCmId id, InetSocketAddress address) throws IOException {
		if (SocketAddressLayout.isIpv4(address)) {
			id.bindAddr(address);
			return;
		}
		check(address, "bind to");
		ByteBuffer layout = layout(address);
		CmAddressNatives.bind(DisniCmExtensions.handle(id), MemoryUtils.getAddress(layout));
		Reference.reachabilityFence(layout);
	}

	/**
	 * {@code rdma_resolve_addr} without a source address (bind the id first to choose one).
	 * @param id the cm id
	 * @param destination where to
	 * @param timeoutMillis the timeout
	 * @throws IOException if it fails
	 */
	void resolve(RdmaCmId id, InetSocketAddress destination, int timeoutMillis) throws IOException {
		if (SocketAddressLayout.isIpv4(destination)) {
			id.resolveAddr(null, destination, timeoutMillis);
			return;
		}
		check(destination, "connect to");
		ByteBuffer layout = layout(destination);
		CmAddressNatives.resolve(DisniCmExtensions.handle(id), 0, MemoryUtils.getAddress(layout), timeoutMillis);
		Reference.reachabilityFence(layout);
	}

	/**
	 * The local or peer address of a cm id.
	 * @param id the cm id
	 * @param local {@code true} for the local address
	 * @return the address, empty when the id has none (yet) or it cannot be read
	 */
	Optional<InetSocketAddress> address(RdmaCmId id, boolean local) {
		try {
			if (!ipv6()) {
				SocketAddress address = local ? id.getSource() : id.getDestination();
				return (address instanceof InetSocketAddress inet) ? Optional.of(inet) : Optional.empty();
			}
			ByteBuffer out = ByteBuffer.allocateDirect(SocketAddressLayout.IN6_SIZE);
			int length = CmAddressNatives.address(DisniCmExtensions.handle(id), local ? 1 : 0, MemoryUtils.getAddress(out),
					SocketAddressLayout.IN6_SIZE);
			Reference.reachabilityFence(out);
			return (length > 0) ? Optional.of(SocketAddressLayout.read(out, length)) : Optional.empty();
		}
		catch (IOException | RuntimeException ex) {
			logger.log(Level.DEBUG, "Cannot read the address of a cm id", ex);
			return Optional.empty();
		}
	}

	/**
	 * After a device removal, has librdmacm close the removed device's verbs context once no cm
	 * id uses it (a librdmacm that supports removal does so when it lists its devices).
	 */
	void forgetRemovedDevices() {
		if (ipv6()) {
			CmAddressNatives.forgetRemovedDevices();
		}
	}

	private static ByteBuffer layout(InetSocketAddress address) {
		ByteBuffer buffer = ByteBuffer.allocateDirect(SocketAddressLayout.IN6_SIZE);
		SocketAddressLayout.write(address, buffer);
		return buffer;
	}

	/** Detected on first use, after DiSNI loaded libdisni. */
	private static final class SystemHolder {

		static final DisniAddresses INSTANCE = detectAndLog();

		private static DisniAddresses detectAndLog() {
			if (!Boolean.parseBoolean(System.getProperty(DisniCmExtensions.ENABLED_PROPERTY, "true"))) {
				return new DisniAddresses(
						Optional.of("switched off by -D" + DisniCmExtensions.ENABLED_PROPERTY + "=false"));
			}
			DisniAddresses result = detect(CmAddressNatives::version);
			if (!result.ipv6()) {
				logger.log(Level.INFO, "DiSNI connections use IPv4 addresses only: " + result.missing.get());
			}
			return result;
		}

	}

}
