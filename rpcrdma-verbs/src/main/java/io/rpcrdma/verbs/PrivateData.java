package io.rpcrdma.verbs;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Bytes exchanged with a connection request, an accept or a reject (rdma_cm
 * {@code private_data}); RPC-over-RDMA uses it to negotiate inline thresholds and
 * credits (RFC 8797).
 * <p>
 * At most {@value #MAX_LENGTH} bytes, the limit of an InfiniBand CM reply; some
 * transports allow less on a connection request (InfiniBand: 56 bytes through rdma_cm),
 * which their providers report by failing the connect. RFC 8797's message is 8 bytes.
 *
 * @param bytes the content; copied in and out
 */
public record PrivateData(byte[] bytes) {

	/** The most bytes private data may have. */
	public static final int MAX_LENGTH = 196;

	/** No private data. */
	public static final PrivateData EMPTY = new PrivateData(new byte[0]);

	/**
	 * Validates and copies the content.
	 * @param bytes the content
	 */
	public PrivateData {
		if (bytes == null) {
			bytes = new byte[0];
		}
		if (bytes.length > MAX_LENGTH) {
			throw new IllegalArgumentException("Private data is limited to " + MAX_LENGTH + " bytes but got "
					+ bytes.length + "; exchange larger data in the first messages after connecting");
		}
		bytes = bytes.clone();
	}

	/**
	 * Private data with the given content.
	 * @param bytes the content
	 * @return the private data
	 */
	public static PrivateData of(byte... bytes) {
		return new PrivateData(bytes);
	}

	/**
	 * A copy of the content.
	 * @return the bytes
	 */
	@Override
	public byte[] bytes() {
		return this.bytes.clone();
	}

	/**
	 * The number of bytes.
	 * @return the length
	 */
	public int length() {
		return this.bytes.length;
	}

	/**
	 * Whether there are no bytes.
	 * @return {@code true} if empty
	 */
	public boolean isEmpty() {
		return this.bytes.length == 0;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof PrivateData that && Arrays.equals(this.bytes, that.bytes);
	}

	@Override
	public int hashCode() {
		return Arrays.hashCode(this.bytes);
	}

	@Override
	public String toString() {
		return "PrivateData[" + HexFormat.of().formatHex(this.bytes) + "]";
	}

}
