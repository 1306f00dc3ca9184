package io.rpcrdma.xdr;

/**
 * RFC 5666 §3.9 padding of an RDMA_MSGP message: a sender may put pad bytes between the
 * length word of a counted opaque (or string) of at least {@code threshold} bytes and its
 * data, so that the data starts at a multiple of {@code align} in the receiver's buffer.
 * The receiver's XDR decoder "MUST consult these values when decoding opaque values" and
 * skip the padding given "the current XDR stream position".
 * <p>
 * The stream position is counted from the start of the received RDMA Send, transport
 * header included, since alignment in the receive buffer is what the padding is for; the
 * RPC message starts {@code streamOffset} bytes into it. RFC 5666 §3.9 calls
 * {@code rdma_thresh} both "the opaque data size at or above which padding is applied" and
 * a length the decoded one must exceed; the field's definition (at or above) is followed.
 *
 * @param align {@code rdma_align}: the alignment in bytes; 4 or less means no padding
 * beyond XDR's own
 * @param threshold {@code rdma_thresh} as an unsigned value
 * @param streamOffset where the RPC message starts in the received message
 */
public record OpaquePadding(long align, long threshold, int streamOffset) {

	/**
	 * Validates the values.
	 */
	public OpaquePadding {
		if (align < 0 || align > 0xFFFF_FFFFL || threshold < 0 || threshold > 0xFFFF_FFFFL) {
			throw new IllegalArgumentException(
					"rdma_align and rdma_thresh are XDR uint32s, got " + align + " and " + threshold);
		}
		if (streamOffset < 0) {
			throw new IllegalArgumentException("streamOffset must not be negative, got " + streamOffset);
		}
	}

	/**
	 * The pad bytes before the data of an opaque.
	 * @param position where the data would start, counted from the start of the RPC message
	 * @param length the opaque's decoded length
	 * @return how many bytes to skip: 0 to {@code align - 1}
	 */
	public long padding(int position, long length) {
		if (this.align <= 4 || length < this.threshold) {
			return 0;
		}
		long misalignment = (this.streamOffset + (long) position) % this.align;
		return (misalignment == 0) ? 0 : this.align - misalignment;
	}

}
