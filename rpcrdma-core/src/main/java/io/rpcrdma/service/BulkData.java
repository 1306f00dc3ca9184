package io.rpcrdma.service;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;

/**
 * Bulk bytes as a service method's parameter or result type, the one that allows zero copy on
 * the client (RFC 8166 §6 "DDP-eligibility"): made {@link #of(RegisteredBuffer, int) of a
 * registered buffer} the caller leased from the pool with {@link BufferRole#READ_CHUNK}, it
 * is advertised as a Read chunk and read by the server's RDMA Read straight from that memory,
 * never copied. Made of a plain {@link ByteBuffer} or {@code byte[]}, it travels like one.
 * <p>
 * On the server, an argument arrives as a view of the receive memory ({@link #buffer()}),
 * registered memory when it came by Read chunk, valid until the method returns (or its future
 * completes): copy what must outlive the call. A result arrives on the client as a copy it may
 * keep.
 */
public final class BulkData {

	private final ByteBuffer data;

	private final RegisteredBuffer registered;

	private BulkData(ByteBuffer data, RegisteredBuffer registered) {
		this.data = data;
		this.registered = registered;
	}

	/**
	 * Bulk data in a registered buffer, for zero copy: the buffer must stay leased and unchanged
	 * until the call completes; the caller releases it afterwards.
	 * @param buffer a buffer leased with {@link BufferRole#READ_CHUNK}
	 * @param length how many of its bytes, from its first, are the data
	 * @return the bulk data
	 * @throws IllegalArgumentException if the buffer cannot be read by a peer or is too short
	 */
	public static BulkData of(RegisteredBuffer buffer, int length) {
		Objects.requireNonNull(buffer, "buffer");
		if (buffer.role() != BufferRole.READ_CHUNK) {
			throw new IllegalArgumentException("A " + buffer.role() + " buffer cannot be read by the server; lease it with"
					+ " BufferRole.READ_CHUNK for zero copy");
		}
		if (length < 0 || length > buffer.length()) {
			throw new IllegalArgumentException("length " + length + " is outside the " + buffer.length() + "-byte buffer");
		}
		return new BulkData(buffer.buffer().duplicate().limit(length).slice(), buffer);
	}

	/**
	 * @param data the bytes between its position and limit (not copied)
	 * @return the bulk data
	 */
	public static BulkData wrap(ByteBuffer data) {
		return new BulkData(Objects.requireNonNull(data, "data").slice(), null);
	}

	/**
	 * @param data the bytes (not copied)
	 * @return the bulk data
	 */
	public static BulkData wrap(byte[] data) {
		return new BulkData(ByteBuffer.wrap(Objects.requireNonNull(data, "data")), null);
	}

	/** @return the bytes, a read-only view between position 0 and the length */
	public ByteBuffer buffer() {
		return this.data.asReadOnlyBuffer();
	}

	/** @return the number of bytes */
	public int length() {
		return this.data.remaining();
	}

	/** @return the registered buffer holding the bytes, or {@code null} if they are in plain memory */
	public RegisteredBuffer registered() {
		return this.registered;
	}

	/** @return a copy of the bytes */
	public byte[] toByteArray() {
		byte[] copy = new byte[this.data.remaining()];
		this.data.duplicate().get(copy);
		return copy;
	}

	@Override
	public String toString() {
		return "BulkData[" + length() + " bytes" + ((this.registered != null) ? ", registered" : "") + "]";
	}

}
