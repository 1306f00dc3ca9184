package io.rpcrdma.protocol;

/**
 * An RDMA segment (RFC 5666 §4.3 {@code xdr_rdma_segment}, RFC 8166 §3.4.3): a registered
 * memory region of the sender, named by a steering tag, that the peer may access by RDMA.
 * <p>
 * {@code length} is an XDR {@code uint32} carried in a Java {@code int}: values of 2^31 and
 * more appear negative, so use {@link #unsignedLength()} for arithmetic. {@code offset} is the
 * raw 64-bit {@code uint64} (a virtual address or an offset into the region).
 *
 * @param handle the steering tag (STag / rkey) of the registered memory
 * @param length the number of bytes in the segment, unsigned
 * @param offset the starting address or offset within the region, unsigned
 */
public record RdmaSegment(int handle, int length, long offset) {

	/** @return {@link #length()} as the unsigned value the wire carries */
	public long unsignedLength() {
		return Integer.toUnsignedLong(this.length);
	}

	/**
	 * Tells whether the segment's last byte, at {@code offset + length - 1}, lies past
	 * 2^64 - 1, so the segment would describe memory that wraps around the address space; no
	 * registration can cover that. A segment may end exactly at 2^64.
	 * @return {@code true} if the segment wraps
	 */
	public boolean wrapsAround() {
		if (this.length == 0) {
			return false;
		}
		long last = this.offset + (unsignedLength() - 1);
		return Long.compareUnsigned(last, this.offset) < 0;
	}

	@Override
	public String toString() {
		return "RdmaSegment[handle=0x" + Integer.toHexString(this.handle) + ", length=" + unsignedLength()
				+ ", offset=0x" + Long.toHexString(this.offset) + "]";
	}

}
