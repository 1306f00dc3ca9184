package io.rpcrdma.transport;

import java.nio.ByteBuffer;

import io.rpcrdma.memory.RegisteredBuffer;

/**
 * A DDP-eligible XDR data item inside an encoded RPC message (RFC 8166 §6): the bytes of an
 * opaque's data, without its length word and without its XDR padding. The transport may
 * move it out of the Payload stream into a chunk; the upper layer decides which items are
 * eligible.
 *
 * @param offset where the data starts in the encoded message; a multiple of four (XDR
 * alignment, RFC 8166 §3.4.4)
 * @param length the data's length in bytes, without the padding that follows it
 * @param source {@code null} when the data is in the message at {@code offset}; else the
 * data itself, of a reduced data item (RFC 8166 §3.4.1): the message holds nothing for it (its
 * length word ends just before {@code offset}) and the transport takes the data from here, so
 * a large result is not copied into the reply first
 * @param registered {@code null}, or the registered buffer {@code source} is the start of:
 * the transport may RDMA-Write the data straight from it, with no copy at all
 */
public record DdpRange(int offset, int length, ByteBuffer source, RegisteredBuffer registered) {

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
		if (source != null && source.remaining() != length) {
			throw new IllegalArgumentException("A DDP-eligible item of " + length + " bytes reduced from the message needs as many,"
					+ " got " + source.remaining());
		}
		if (registered != null && source == null) {
			throw new IllegalArgumentException("A DDP-eligible item in a registered buffer is reduced from the message: give its"
					+ " data as the source too (DdpRange.registered does)");
		}
		if (registered != null && length > registered.length()) {
			throw new IllegalArgumentException("A DDP-eligible item of " + length + " bytes does not fit its registered"
					+ " buffer of " + registered.length() + " bytes");
		}
	}

	/**
	 * An item whose data is in the message.
	 * @param offset where the data starts in the encoded message
	 * @param length the data's length, without padding
	 */
	public DdpRange(int offset, int length) {
		this(offset, length, null, null);
	}

	/**
	 * An item whose data is in the message, or reduced from it and held in plain memory.
	 * @param offset where the data starts in the encoded message
	 * @param length the data's length, without padding
	 * @param source {@code null}, or the data of the reduced item
	 */
	public DdpRange(int offset, int length, ByteBuffer source) {
		this(offset, length, source, null);
	}

	/**
	 * A reduced data item: its data is not in the message (RFC 8166 §3.4.1).
	 * @param offset where the data would start in the message: just after its length word
	 * @param data the data, between position and limit; not copied
	 * @return the item
	 */
	public static DdpRange reduced(int offset, ByteBuffer data) {
		return new DdpRange(offset, data.remaining(), data.slice());
	}

	/**
	 * A reduced data item held in registered memory, from the buffer's first
	 * byte: it may be written to the peer from there.
	 * @param offset where the data would start in the message: just after its length word
	 * @param buffer the registered buffer holding the data
	 * @param length the data's length
	 * @return the item
	 */
	public static DdpRange registered(int offset, RegisteredBuffer buffer, int length) {
		return new DdpRange(offset, length, buffer.buffer().duplicate().limit(length).slice(), buffer);
	}

	/** @return whether the item is reduced: its data is not in the message */
	public boolean isReduced() {
		return this.source != null;
	}

	/**
	 * The item's data.
	 * @param message the encoded message, from its position
	 * @return a view of the data: in the message, or the reduced item's own
	 */
	public ByteBuffer data(ByteBuffer message) {
		return (this.source != null) ? this.source.duplicate()
				: message.slice(message.position() + this.offset, this.length);
	}

	/**
	 * The length with XDR roundup (RFC 5666 §3.7): what the item occupies in the XDR stream.
	 * @return the padded length
	 */
	public int paddedLength() {
		return (this.length + 3) & ~3;
	}

	/**
	 * @return the offset just past what the item occupies in the message: its data and
	 * padding, or nothing when it is reduced
	 */
	public int paddedEnd() {
		return this.offset + ((this.source != null) ? 0 : paddedLength());
	}

}
