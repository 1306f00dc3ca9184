package io.rpcrdma.service.codec;

import java.nio.ByteBuffer;

import io.rpcrdma.service.BulkData;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * {@code byte[]} and {@link ByteBuffer} as variable-length opaque data (RFC 4506 §4.10),
 * DDP-eligible (RFC 8166 §6.1). A decoded {@link ByteBuffer} is a zero-copy slice of the
 * receive buffer: valid only until the transport reuses that buffer, so a handler that keeps
 * it must copy it.
 */
final class OpaqueCodecs {

	private OpaqueCodecs() {
	}

	static final class Bytes implements XdrCodec<byte[]> {

		private final int maxBytes;

		Bytes(int maxBytes) {
			this.maxBytes = maxBytes;
		}

		@Override
		public void encode(byte[] value, XdrEncoder out) {
			checkLength(Nulls.require(value, "opaque").length, this.maxBytes);
			out.writeOpaque(value);
		}

		@Override
		public byte[] decode(XdrDecoder in) {
			return in.readOpaqueBytes(this.maxBytes);
		}

		@Override
		public int encodedSize(byte[] value) {
			return Xdr.UNIT + (int) Xdr.pad(Nulls.require(value, "opaque").length);
		}

		@Override
		public boolean ddpEligible() {
			return true;
		}

		@Override
		public XdrShape shape() {
			return new XdrShape.Opaque(Integer.MAX_VALUE);
		}

		@Override
		public String toString() {
			return "opaque<" + this.maxBytes + ">";
		}

	}

	static final class Buffer implements XdrCodec<ByteBuffer> {

		private final int maxBytes;

		Buffer(int maxBytes) {
			this.maxBytes = maxBytes;
		}

		@Override
		public void encode(ByteBuffer value, XdrEncoder out) {
			checkLength(Nulls.require(value, "opaque").remaining(), this.maxBytes);
			out.writeOpaque(value);
		}

		@Override
		public ByteBuffer decode(XdrDecoder in) {
			return in.readOpaque(this.maxBytes);
		}

		@Override
		public int encodedSize(ByteBuffer value) {
			return Xdr.UNIT + (int) Xdr.pad(Nulls.require(value, "opaque").remaining());
		}

		@Override
		public boolean ddpEligible() {
			return true;
		}

		@Override
		public XdrShape shape() {
			return new XdrShape.Opaque(Integer.MAX_VALUE);
		}

		@Override
		public String toString() {
			return "opaque<" + this.maxBytes + ">";
		}

	}

	/** {@link BulkData}: opaque data; a decoded value is a view, like {@link Buffer}'s. */
	static final class Bulk implements XdrCodec<BulkData> {

		private final int maxBytes;

		Bulk(int maxBytes) {
			this.maxBytes = maxBytes;
		}

		@Override
		public void encode(BulkData value, XdrEncoder out) {
			checkLength(Nulls.require(value, "opaque").length(), this.maxBytes);
			out.writeOpaque(value.buffer());
		}

		@Override
		public BulkData decode(XdrDecoder in) {
			return BulkData.wrap(in.readOpaque(this.maxBytes));
		}

		@Override
		public int encodedSize(BulkData value) {
			return Xdr.UNIT + (int) Xdr.pad(Nulls.require(value, "opaque").length());
		}

		@Override
		public boolean ddpEligible() {
			return true;
		}

		@Override
		public XdrShape shape() {
			return new XdrShape.Opaque(Integer.MAX_VALUE);
		}

		@Override
		public String toString() {
			return "opaque<" + this.maxBytes + ">";
		}

	}

	static void checkLength(int length, int maxBytes) {
		if (length > maxBytes) {
			throw new XdrInvalidValueException("opaque data of " + length + " bytes is longer than the limit of " + maxBytes
					+ "; the peer would reject it");
		}
	}

}
