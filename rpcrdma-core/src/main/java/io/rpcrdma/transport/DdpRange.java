package io.rpcrdma.transport;

/**
 * A DDP-eligible XDR data item inside an encoded RPC message (RFC 8166 §6): the bytes of an
 * opaque's data, without its length word and without its XDR padding. The transport may
 * move it out of the Payload stream into a chunk; the upper layer decides which items are
 * eligible.
 *
 * @param offset where the data starts in the encoded message; a multiple of four (XDR
 * alignment, RFC 8166 §3.4.4)
 * @param length the data's length in bytes, without the padding that follows it
 */
public record DdpRange(int offset, int length) {

	/**
	 * Validates the range.
	 */
	public DdpRange {
		if (offset < 0 || (offset & 3) != 0) {
			throw new IllegalArgumentException("A DDP-eligible item starts at a non-negative multiple of four, got "
					+ offset + " (RFC 8166 §3.4.4: chunks begin at XDR alignment)");
		}
		if (length < 0) {
			throw new IllegalArgumentException("A DDP-eligible item has a non-negative length, got " + length);
		}
	}

	/**
	 * The length with XDR roundup (RFC 5666 §3.7): what the item occupies in the XDR stream.
	 * @return the padded length
	 */
	public int paddedLength() {
		return (this.length + 3) & ~3;
	}

	/** @return the offset just past the item and its padding */
	public int paddedEnd() {
		return this.offset + paddedLength();
	}

}
