package io.rpcrdma.verbs.disni;

import java.io.IOException;

/**
 * rpcrdma's own address entry points in the project's libdisni (rpcrdma-disni-native): bind,
 * resolve and read the addresses of a cm id for IPv4 and IPv6. DiSNI 2.1's Java side lays out
 * only a {@code struct sockaddr_in}, so an IPv6 address cannot pass through it. A stock
 * libdisni has none of these and calling one throws {@link UnsatisfiedLinkError}; only
 * {@link DisniAddresses} calls them, after detecting them. Separate from {@link CmNatives}, whose
 * version stays what it was.
 */
final class CmAddressNatives {

	/** What {@link #version()} answers when the natives match this class. */
	static final int VERSION = 1;

	private CmAddressNatives() {
	}

	/**
	 * The natives' version.
	 * @return {@link #VERSION} for a library built from this project's sources
	 */
	static native int version();

	/**
	 * {@code rdma_bind_addr}.
	 * @param cmId the {@code struct rdma_cm_id} pointer
	 * @param address the address of a {@code struct sockaddr_in} or {@code sockaddr_in6}
	 * @throws IOException if rdma_bind_addr fails
	 */
	static native void bind(long cmId, long address) throws IOException;

	/**
	 * {@code rdma_resolve_addr}.
	 * @param cmId the {@code struct rdma_cm_id} pointer
	 * @param source the address of the source {@code sockaddr}, 0 for none
	 * @param destination the address of the destination {@code sockaddr}
	 * @param timeoutMillis the resolution timeout
	 * @throws IOException if rdma_resolve_addr fails
	 */
	static native void resolve(long cmId, long source, long destination, int timeoutMillis) throws IOException;

	/**
	 * Copies the cm id's local or peer {@code sockaddr}.
	 * @param cmId the {@code struct rdma_cm_id} pointer
	 * @param local 1 for the local address, 0 for the peer's
	 * @param out where to copy it
	 * @param capacity the bytes at {@code out}
	 * @return the bytes copied, -1 if there is no IPv4 or IPv6 address or it does not fit
	 */
	static native int address(long cmId, int local, long out, int capacity);

	/**
	 * Lists and frees librdmacm's devices, after which a librdmacm that supports device removal
	 * closes the verbs context of a removed device that no cm id uses any more.
	 */
	static native void forgetRemovedDevices();

}
