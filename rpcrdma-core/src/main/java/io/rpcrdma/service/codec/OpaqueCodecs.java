package io.rpcrdma.service.codec;

import java.nio.ByteBuffer;

import io.rpcrdma.service.BulkData;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * {@code byte[]}, {@link ByteBuffer} and {@link BulkData} as variable-length opaque data (RFC 4506 §4.10),
 * DDP-eligible (RFC 8166 §6.1). A decoded {@link ByteBuffer} is a zero-copy slice of the
 * receive buffer: valid only until the transport reuses that buffer, so a handler that keeps
 * it must copy it.
 */
final class OpaqueCodecs {

	private OpaqueCodecs() {
	}

	/**
	 * What the three opaque codecs share: the bound, the XDR size, DDP-eligibility and the
	 * shape; each says how long its value is and how to write and read it.
	 */
	private abstract static class Opaque<T> implements XdrCodec<T> {

		final int maxBytes;

		Opaque(int maxBytes) {
			this.maxBytes = maxBytes;
		}

		abstract int length(T value);

		abstract void write(T value, XdrEncoder out);

		@Override
		public final void encode(T value, XdrEncoder out) {
			checkLength(length(Nulls.require(value, "opaque")), this.maxBytes);
			write(value, out);
		}

		@Override
		public final int encodedSize(T value) {
			return Xdr.UNIT + (int) Xdr.pad(length(Nulls.require(value, "opaque")));
		}

		@Override
		public final boolean ddpEligible() {
			return true;
		}

		@Override
		public final XdrShape shape() {
			return new XdrShape.Opaque(Integer.MAX_VALUE);
		}

		@Override
		public final String toString() {
			return "opaque<" + this.maxBytes + ">";
		}

	}

	static final class Bytes extends Opaque<byte[]> {

		Bytes(int maxBytes) {
			super(maxBytes);
		}

		@Override
		int length(byte[] value) {
			return value.length;
		}

		@Override
		void write(byte[] value, XdrEncoder out) {
			out.writeOpaque(value);
		}

		@Override
		public byte[] decode(XdrDecoder in) {
			return in.readOpaqueBytes(this.maxBytes);
		}

	}

	static final class Buffer extends Opaque<ByteBuffer> {

		Buffer(int maxBytes) {
			super(maxBytes);
		}

		@Override
		int length(ByteBuffer value) {
			return value.remaining();
		}

		@Override
		void write(ByteBuffer value, XdrEncoder out) {
			out.writeOpaque(value);
		}

		@Override
		public ByteBuffer decode(XdrDecoder in) {
			return in.readOpaque(this.maxBytes);
		}

	}

	/** {@link BulkData}: opaque data; a decoded value is a view, like {@link Buffer}'s. */
	static final class Bulk extends Opaque<BulkData> {

		Bulk(int maxBytes) {
			super(maxBytes);
		}

		@Override
		int length(BulkData value) {
			return value.length();
		}

		@Override
		void write(BulkData value, XdrEncoder out) {
			out.writeOpaque(value.buffer());
		}

		@Override
		public BulkData decode(XdrDecoder in) {
			return BulkData.wrap(in.readOpaque(this.maxBytes));
		}

	}

	static void checkLength(int length, int maxBytes) {
		if (length > maxBytes) {
			throw new XdrInvalidValueException("opaque data of " + length + " bytes is longer than the limit of " + maxBytes
					+ "; the peer would reject it");
		}
	}

}
