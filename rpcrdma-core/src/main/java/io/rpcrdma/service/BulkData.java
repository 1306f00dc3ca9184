package io.rpcrdma.service;

import java.lang.ref.Cleaner;
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
 * keep, or, from a method marked {@link Bulk#lend() @Bulk(lend = true)}, lent: a view of the
 * registered buffer the server wrote it to, which {@link #close()} gives back to the pool. A
 * lent result never closed is given back when it is garbage collected, with a warning, so a
 * forgotten {@code close()} costs pool memory for a while, not for ever.
 */
public final class BulkData implements AutoCloseable {

	private static final System.Logger logger = System.getLogger(BulkData.class.getName());

	/** Gives back lent results their callers forgot to close. */
	private static final Cleaner LEASES = Cleaner.create();

	private final ByteBuffer data;

	private final RegisteredBuffer registered;

	/** For a lent result: what gives its buffer back; {@code null} otherwise. */
	private final Lease lease;

	private final Cleaner.Cleanable cleanable;

	private BulkData(ByteBuffer data, RegisteredBuffer registered) {
		this.data = data;
		this.registered = registered;
		this.lease = null;
		this.cleanable = null;
	}

	private BulkData(ByteBuffer data, Runnable release) {
		this.data = data;
		this.registered = null;
		this.lease = new Lease(release, data.remaining());
		this.cleanable = LEASES.register(this, this.lease);
	}

	/**
	 * A result lent from the transport's registered memory ({@link Bulk#lend()}).
	 * @param data the view of the result's bytes
	 * @param release gives the memory back, once
	 */
	static BulkData lent(ByteBuffer data, Runnable release) {
		return new BulkData(data.slice(), Objects.requireNonNull(release, "release"));
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
		return new BulkData(Objects.requireNonNull(data, "data").slice(), (RegisteredBuffer) null);
	}

	/**
	 * @param data the bytes (not copied)
	 * @return the bulk data
	 */
	public static BulkData wrap(byte[] data) {
		return new BulkData(ByteBuffer.wrap(Objects.requireNonNull(data, "data")), (RegisteredBuffer) null);
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

	/** @return whether this is a result lent from registered memory, to be {@linkplain #close() closed} */
	public boolean isLent() {
		return this.lease != null;
	}

	/**
	 * Gives a lent result's buffer back to the pool; its bytes must not be read afterwards.
	 * Does nothing for data that is not lent, and when called again.
	 */
	@Override
	public void close() {
		if (this.lease != null) {
			this.lease.closed = true;
			this.cleanable.clean();
		}
	}

	@Override
	public String toString() {
		return "BulkData[" + length() + " bytes" + ((this.registered != null) ? ", registered" : "")
				+ ((this.lease != null) ? ", lent" : "") + "]";
	}

	/** A lent result's buffer, given back by close() or, with a warning, by the garbage collector. */
	private static final class Lease implements Runnable {

		private final Runnable release;

		private final int length;

		volatile boolean closed;

		Lease(Runnable release, int length) {
			this.release = release;
			this.length = length;
		}

		@Override
		public void run() {
			if (!this.closed) {
				logger.log(System.Logger.Level.WARNING, "A lent BulkData result of " + this.length + " bytes was never"
						+ " closed; its registered buffer went back to the pool only when it was garbage collected."
						+ " Close lent results (@Bulk(lend = true)) with try-with-resources");
			}
			this.release.run();
		}

	}

}
