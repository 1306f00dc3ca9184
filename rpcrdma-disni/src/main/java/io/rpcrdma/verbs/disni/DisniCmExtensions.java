package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.impl.NatCmaIdPrivate;

import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProviderCapabilities;

/**
 * Whether the libdisni loaded here has rpcrdma's own connection-manager entry points
 * ({@link CmNatives}), detected once, and the calls that use them: RFC 8797 private data in
 * both directions (RFC 8797 section 4) and a real {@code rdma_reject}. With a stock
 * libdisni they are absent, the detection logs so once at INFO, and the provider keeps
 * DiSNI's behaviour: no private data from events, none sent with an accept, reject by
 * destroying the request's cm id, in-band CCP (RFC 5666 section 6) for the inline sizes.
 *
 * @param missing why the entry points cannot be used, empty when they can
 */
record DisniCmExtensions(Optional<String> missing) {

	private static final System.Logger logger = System.getLogger(DisniCmExtensions.class.getName());

	/**
	 * The JVM property that switches the natives off ({@code false}), leaving DiSNI's own
	 * behaviour as with a stock libdisni; on by default.
	 */
	static final String ENABLED_PROPERTY = "rpcrdma.disni.cm-natives";

	/** More than any connection manager carries (iWARP's MPA allows the most: 255 bytes). */
	private static final int PRIVATE_DATA_CAPACITY = 255;

	/**
	 * Validates the result.
	 * @param missing why the entry points cannot be used
	 */
	DisniCmExtensions {
		Objects.requireNonNull(missing, "missing");
	}

	/**
	 * The detection for this JVM's libdisni, run and logged once.
	 * @return the result
	 */
	static DisniCmExtensions system() {
		return SystemHolder.INSTANCE;
	}

	/**
	 * Probes the entry points: they are usable when the probe answers {@link CmNatives#VERSION}.
	 * @param version calls {@link CmNatives#version()} (or stands in for it)
	 * @return the result
	 */
	static DisniCmExtensions detect(IntSupplier version) {
		try {
			int found = version.getAsInt();
			if (found != CmNatives.VERSION) {
				return new DisniCmExtensions(Optional.of("libdisni's rpcrdma connection-manager natives are version "
						+ found + ", this provider needs " + CmNatives.VERSION + "; rebuild rpcrdma-disni-native"));
			}
			return new DisniCmExtensions(Optional.empty());
		}
		catch (UnsatisfiedLinkError ex) {
			return new DisniCmExtensions(Optional.of("the loaded libdisni lacks rpcrdma's connection-manager natives ("
					+ ex.getMessage() + "), as a stock DiSNI library does; build rpcrdma-disni-native for RFC 8797 "
					+ "private data and rdma_reject"));
		}
	}

	/**
	 * Whether the entry points can be used.
	 * @return {@code true} if present and of this version
	 */
	boolean available() {
		return this.missing.isEmpty();
	}

	/**
	 * What a provider with these entry points can do with private data: with them it travels
	 * with the connect request, the accept and the reject, so RFC 8797 replaces in-band CCP.
	 * @param base the provider's capabilities without them
	 * @return {@code base}, with private data visible in all three directions when available
	 */
	ProviderCapabilities apply(ProviderCapabilities base) {
		if (!available()) {
			return base;
		}
		return new ProviderCapabilities(true, true, true, base.remoteInvalidation(), base.receiverNotReadyRetry(),
				base.remoteErrorsAtInitiator(), base.connectionScopedRegions());
	}

	/**
	 * The private data of the cm id's last connect-request, established or rejected event.
	 * @param id the cm id
	 * @return the data, {@link PrivateData#EMPTY} when none came or the entry points are absent
	 */
	PrivateData takePrivateData(RdmaCmId id) {
		if (!available() || id == null) {
			return PrivateData.EMPTY;
		}
		ByteBuffer out = ByteBuffer.allocateDirect(PRIVATE_DATA_CAPACITY);
		int length = CmNatives.takePrivateData(handle(id), MemoryUtils.getAddress(out), PRIVATE_DATA_CAPACITY);
		Reference.reachabilityFence(out);
		if (length <= 0) {
			return PrivateData.EMPTY;
		}
		byte[] bytes = new byte[Math.min(length, PrivateData.MAX_LENGTH)];
		out.get(0, bytes);
		return PrivateData.of(bytes);
	}

	/**
	 * Accepts with private data.
	 * @param id the request's cm id
	 * @param retry the transport retry count
	 * @param rnrRetry the RNR retry count
	 * @param privateData what to send
	 * @throws IOException if rdma_accept fails
	 */
	void accept(RdmaCmId id, int retry, int rnrRetry, PrivateData privateData) throws IOException {
		requireAvailable();
		ByteBuffer data = direct(privateData);
		CmNatives.accept(handle(id), retry, rnrRetry, (data != null) ? MemoryUtils.getAddress(data) : 0,
				privateData.length());
		Reference.reachabilityFence(data);
	}

	/**
	 * Rejects with private data.
	 * @param id the request's cm id
	 * @param privateData what to send
	 * @throws IOException if rdma_reject fails
	 */
	void reject(RdmaCmId id, PrivateData privateData) throws IOException {
		requireAvailable();
		ByteBuffer data = direct(privateData);
		CmNatives.reject(handle(id), (data != null) ? MemoryUtils.getAddress(data) : 0, privateData.length());
		Reference.reachabilityFence(data);
	}

	private void requireAvailable() {
		if (!available()) {
			throw new IllegalStateException("rpcrdma's connection-manager natives are not available: " + this.missing.get());
		}
	}

	/** The native copies the bytes before returning; they only need to stay reachable until then. */
	private static ByteBuffer direct(PrivateData privateData) {
		if (privateData.isEmpty()) {
			return null;
		}
		ByteBuffer buffer = ByteBuffer.allocateDirect(privateData.length());
		buffer.put(privateData.bytes());
		return buffer;
	}

	static long handle(RdmaCmId id) {
		if (id instanceof NatCmaIdPrivate nat) {
			return nat.getObjId();
		}
		throw new IllegalArgumentException("Not a DiSNI native cm id: " + id.getClass().getName());
	}

	@Override
	public String toString() {
		return available() ? "rpcrdma connection-manager natives available"
				: "rpcrdma connection-manager natives missing: " + this.missing.get();
	}

	/** Detected on first use, after DiSNI loaded libdisni, and logged once. */
	private static final class SystemHolder {

		static final DisniCmExtensions INSTANCE = detectAndLog();

		private static DisniCmExtensions detectAndLog() {
			if (!Boolean.parseBoolean(System.getProperty(ENABLED_PROPERTY, "true"))) {
				return new DisniCmExtensions(Optional.of("switched off by -D" + ENABLED_PROPERTY + "=false"));
			}
			DisniCmExtensions result = detect(CmNatives::version);
			if (result.available()) {
				logger.log(Level.DEBUG, "libdisni has rpcrdma's connection-manager natives: RFC 8797 private data "
						+ "and rdma_reject are used");
			}
			else {
				logger.log(Level.INFO, "DiSNI connections exchange no RFC 8797 private data and reject by destroying "
						+ "the request's cm id: " + result.missing.get());
			}
			return result;
		}

	}

}
