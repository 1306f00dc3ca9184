package io.rpcrdma.verbs.disni;

import java.io.IOException;

/**
 * rpcrdma's own connection-manager entry points, implemented in the project's libdisni
 * (rpcrdma-disni-native) next to DiSNI 2.1's natives: what DiSNI lacks for RFC 8797
 * (private data of connection-manager events, {@code rdma_accept} with private data) and
 * {@code rdma_reject}. A stock libdisni has none of them, and calling one then throws
 * {@link UnsatisfiedLinkError}; only {@link DisniCmExtensions} calls them, after detecting
 * that they are there.
 * <p>
 * The library is the one DiSNI's {@code NativeDispatcher} loads with
 * {@code System.loadLibrary("disni")}: loaded once by the class path's class loader, its
 * symbols bind these methods too.
 */
final class CmNatives {

	/** What {@link #version()} answers when the natives match this class. */
	static final int VERSION = 1;

	private CmNatives() {
	}

	/**
	 * The natives' version.
	 * @return {@link #VERSION} for a library built from this project's sources
	 */
	static native int version();

	/**
	 * Copies the private data of the cm id's last CONNECT_REQUEST, ESTABLISHED or REJECTED
	 * event to {@code out} and forgets it.
	 * @param cmId the {@code struct rdma_cm_id} pointer
	 * @param out the address of at least {@code capacity} bytes
	 * @param capacity how many bytes to copy at most
	 * @return the number of bytes copied, 0 when the event carried none
	 */
	static native int takePrivateData(long cmId, long out, int capacity);

	/**
	 * {@code rdma_accept} with private data and the same parameters DiSNI's accept uses.
	 * @param cmId the request's {@code struct rdma_cm_id} pointer
	 * @param retry the transport retry count
	 * @param rnrRetry the RNR retry count
	 * @param privateData the address of the private data, 0 for none
	 * @param length its length, 0 to 255
	 * @throws IOException if rdma_accept fails
	 */
	static native void accept(long cmId, int retry, int rnrRetry, long privateData, int length) throws IOException;

	/**
	 * {@code rdma_reject} with private data.
	 * @param cmId the request's {@code struct rdma_cm_id} pointer
	 * @param privateData the address of the private data, 0 for none
	 * @param length its length, 0 to 255
	 * @throws IOException if rdma_reject fails
	 */
	static native void reject(long cmId, long privateData, int length) throws IOException;

}
