package io.rpcrdma.xdr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;

/**
 * Fuzzes the XDR decoder (RFC 4506) every other decoder reads peer bytes through: a sequence
 * of reads, chosen by the input, over data the input supplies, optionally under the RDMA_MSGP
 * padding a peer announces (RFC 5666 §3.9). Contract: each read yields a value or an
 * {@link XdrException}, and never reads outside the buffer; a value written back with
 * {@link XdrEncoder} gives the bytes it was read from (padding aside, which a receiver
 * ignores); an opaque is a view of exactly its bytes.
 * <p>
 * Input: a settings byte (bit 0 a direct buffer; bit 1 RDMA_MSGP padding, with rdma_align
 * and rdma_thresh in the next eight bytes and the stream offset in the byte after), the
 * number of reads n, n read codes (low 4 bits the read, high 4 bits its limit or length),
 * then the data.
 */
class XdrDecoderFuzzTest {

	/** Limits a read may be given: the interesting ones are around 0, 4 and the int range. */
	private static final int[] LIMITS = { 0, 1, 3, 4, 5, 8, 16, 64, 255, 256, 1024, 4096, 65536, 1 << 20,
			Integer.MAX_VALUE - 3, Integer.MAX_VALUE };

	/** Where reads are written back: made once and grown in the unmeasured first run, outside the budget. */
	private static ByteBuffer written = ByteBuffer.allocate(4096);

	@FuzzTest(maxDuration = "30s")
	void decodeXdr(byte[] input) {
		DecodeBudget.check(input.length, () -> decode(input));
	}

	private static void decode(byte[] input) {
		ByteBuffer in = ByteBuffer.wrap(input);
		if (in.remaining() < 2) {
			return;
		}
		int settings = in.get();
		OpaquePadding padding = null;
		if ((settings & 2) != 0) {
			if (in.remaining() < 10) {
				return;
			}
			padding = new OpaquePadding(Integer.toUnsignedLong(in.getInt()), Integer.toUnsignedLong(in.getInt()),
					in.get() & 0xFF);
		}
		int reads = in.get() & 0xFF;
		if (in.remaining() < reads) {
			return;
		}
		byte[] program = new byte[reads];
		in.get(program);
		byte[] data = Arrays.copyOfRange(input, in.position(), input.length);
		ByteBuffer buffer = (settings & 1) != 0 ? ByteBuffer.allocateDirect(data.length).put(data).flip()
				: ByteBuffer.wrap(data);
		XdrDecoder decoder = new XdrDecoder(buffer);
		if (padding != null) {
			decoder.withOpaquePadding(padding);
		}
		for (byte code : program) {
			int start = decoder.position();
			try {
				read(decoder, code & 0x0F, (code >> 4) & 0x0F, padding != null);
			}
			catch (XdrException expected) {
				assertThat(expected.getMessage()).isNotBlank();
				return;
			}
			if (decoder.position() < start || decoder.position() > data.length) {
				throw new AssertionError("read " + (code & 0x0F) + " moved from " + start + " to " + decoder.position());
			}
		}
	}

	private static void read(XdrDecoder decoder, int read, int parameter, boolean padded) {
		int start = decoder.position();
		if (written.capacity() < decoder.remaining() + 8) {
			written = ByteBuffer.allocate(decoder.remaining() + 8);
		}
		XdrEncoder encoder = new XdrEncoder(written.clear());
		int limit = LIMITS[parameter];
		switch (read) {
			case 0 -> encoder.writeInt(decoder.readInt());
			case 1 -> encoder.writeUnsignedInt(decoder.readUnsignedInt());
			case 2 -> encoder.writeHyper(decoder.readHyper());
			case 3 -> encoder.writeBoolean(decoder.readBoolean());
			case 4 -> encoder.writeFloat(decoder.readFloat());
			case 5 -> encoder.writeDouble(decoder.readDouble());
			case 6 -> {
				int length = (parameter == 15) ? -1 : parameter * 3;
				encoder.writeFixedOpaque(decoder.readFixedOpaque(length));
			}
			case 7 -> {
				encoder.writeOpaque(decoder.readOpaque(limit));
			}
			case 8 -> encoder.writeOpaque(decoder.readOpaqueBytes(limit));
			case 9 -> encoder.writeString(decoder.readString(limit));
			case 10 -> {
				int minElementSize = Xdr.UNIT + parameter;
				int count = decoder.readArrayCount("array", limit, minElementSize);
				if (count > limit || (long) count * minElementSize > decoder.remaining()) {
					throw new AssertionError("array count " + count + " passed, over the limit " + limit
							+ " or more than the " + decoder.remaining() + " bytes left hold");
				}
				encoder.writeInt(count);
			}
			case 11 -> encoder.writeInt(decoder.readLength("length", limit));
			case 12 -> {
				decoder.skip(parameter * 5L);
				return;
			}
			default -> {
				return;
			}
		}
		if (padded && (read >= 7 && read <= 9)) {
			// The pad bytes RDMA_MSGP put before the data are the receiver's to skip, not to write.
			return;
		}
		// Compared in place, allocating nothing: the budget is the decoder's. XDR padding is
		// ignored on receipt (RFC 4506 §4.9) and written as zeros.
		ByteBuffer received = decoder.buffer();
		int length = decoder.position() - start;
		int dataEnd = length;
		if (read == 6) {
			dataEnd = parameter * 3;
		}
		else if (read >= 7 && read <= 9) {
			dataEnd = 4 + received.getInt(start);
		}
		if (written.position() != length) {
			throw new AssertionError("read " + read + " took " + length + " bytes but writes " + written.position());
		}
		for (int i = 0; i < length; i++) {
			byte expected = (i < dataEnd) ? received.get(start + i) : 0;
			if (written.get(i) != expected) {
				throw new AssertionError("read " + read + " at " + start + " writes back a different byte " + i);
			}
		}
	}

}
