package io.rpcrdma.verbs.siw.wire;

import io.rpcrdma.xdr.Hex;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * Byte-exact FPDUs of every RDMAP message, written field by field from RFC 5040 §4, RFC 5041
 * §5 and RFC 5044 §4. The CRC trailers were computed with an independent bitwise CRC32c and
 * are written least significant byte first (see {@link Crc32cTest}).
 */
class FpduVectorsTest {

	static final String SEND = """
			00 17                    // ULPDU Length 23 = 18 header + 5 payload
			41                       // DDP control: T=0 L=1 Rsvd=0 DV=1
			43                       // RDMAP control: RV=1 Rsv=0 opcode 3 Send
			00 00 00 00              // RsvdULP[8:39]: zero for Send
			00 00 00 00              // QN 0: Send queue
			00 00 00 01              // MSN 1: first message
			00 00 00 00              // MO 0
			68 65 6c 6c 6f           // payload "hello"
			00 00 00                 // pad: 2 + 23 = 25 -> 3 bytes to 28
			b9 90 b1 0c              // CRC32c 0x0cb190b9, least significant byte first
			""";

	static final String SEND_WITH_INVALIDATE = """
			00 14                    // ULPDU Length 20
			41                       // T=0 L=1 DV=1
			44                       // RV=1 opcode 4 Send with Invalidate
			12 34 56 78              // RsvdULP[8:39]: STag to invalidate
			00 00 00 00              // QN 0
			00 00 00 02              // MSN 2
			00 00 00 00              // MO 0
			68 69                    // payload "hi"
			00 00                    // pad to 24
			90 00 9f fb              // CRC32c 0xfb9f0090
			""";

	static final String RDMA_WRITE = """
			00 16                    // ULPDU Length 22 = 14 header + 8 payload
			c1                       // DDP control: T=1 L=1 DV=1
			40                       // RDMAP control: RV=1 opcode 0 RDMA Write
			ca fe 00 01              // data sink STag
			00 00 7f 00 12 34 50 00  // data sink tagged offset
			00 01 02 03 04 05 06 07  // payload
			                         // no pad: 2 + 22 = 24
			a5 7d 8a 82              // CRC32c 0x828a7da5
			""";

	static final String READ_REQUEST = """
			00 2e                    // ULPDU Length 46 = 18 + 28
			41                       // T=0 L=1 DV=1
			41                       // RV=1 opcode 1 RDMA Read Request
			00 00 00 00              // RsvdULP[8:39]
			00 00 00 01              // QN 1: Read Request queue
			00 00 00 01              // MSN 1
			00 00 00 00              // MO 0
			00 00 01 01              // data sink STag
			00 00 00 00 00 00 10 00  // data sink tagged offset
			00 00 20 00              // RDMA Read message size 8192
			ca fe 00 02              // data source STag
			00 00 7f 00 12 34 00 00  // data source tagged offset
			11 f9 9b 97              // CRC32c 0x979bf911
			""";

	static final String READ_RESPONSE = """
			00 11                    // ULPDU Length 17 = 14 + 3
			c1                       // T=1 L=1 DV=1
			42                       // RV=1 opcode 2 RDMA Read Response
			00 00 01 01              // data sink STag (the requester's)
			00 00 00 00 00 00 10 00  // data sink tagged offset
			61 62 63                 // payload "abc"
			00                       // pad to 20
			b2 26 92 18              // CRC32c 0x189226b2
			""";

	static final String TERMINATE = """
			00 26                    // ULPDU Length 38 = 18 + 4 + 2 + 14
			41                       // T=0 L=1 DV=1
			47                       // RV=1 opcode 7 Terminate
			00 00 00 00              // RsvdULP[8:39]
			00 00 00 02              // QN 2: Terminate queue
			00 00 00 01              // MSN 1
			00 00 00 00              // MO 0
			11                       // layer 1 (DDP), error type 1 (tagged buffer)
			00                       // error code 0x00: invalid STag
			c0 00                    // M=1 (segment length valid) D=1 (DDP header copied) R=0, reserved
			00 16                    // DDP Segment Length of the terminated segment: 22
			c1 40 ca fe 00 01        // terminated DDP header: the RDMA Write's
			00 00 7f 00 12 34 50 00
			f1 fd 6b fb              // CRC32c 0xfb6bfdf1
			""";

	private final FpduWriter withCrc = new FpduWriter(true);

	private final FpduWriter withoutCrc = new FpduWriter(false);

	@Test
	void send() {
		ByteBuffer payload = ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII));
		assertWritten(SEND, (writer, out) -> writer.write(out, UntaggedHeader.of(true, RdmapOpcode.SEND, 0, 1, 0), payload, 0, 5));
		Fpdu fpdu = parse(SEND);
		assertThat(fpdu.untaggedHeader()).isEqualTo(new UntaggedHeader(true, RdmapOpcode.SEND, 0, 0, 1, 0));
		assertThat(StandardCharsets.US_ASCII.decode(fpdu.payload()).toString()).isEqualTo("hello");
	}

	@Test
	void sendWithInvalidate() {
		ByteBuffer payload = ByteBuffer.wrap("hi".getBytes(StandardCharsets.US_ASCII));
		assertWritten(SEND_WITH_INVALIDATE, (writer, out) -> writer.writeUntagged(out, true,
				RdmapOpcode.SEND_WITH_INVALIDATE, 0x12345678, 0, 2, 0, payload, 0, 2));
		Fpdu fpdu = parse(SEND_WITH_INVALIDATE);
		assertThat(fpdu.opcode()).isEqualTo(RdmapOpcode.SEND_WITH_INVALIDATE);
		assertThat(fpdu.invalidateStag()).isEqualTo(0x12345678);
		assertThat(fpdu.msn()).isEqualTo(2);
	}

	@Test
	void rdmaWrite() {
		ByteBuffer payload = ByteBuffer.wrap(Hex.hex("0001020304050607"));
		assertWritten(RDMA_WRITE, (writer, out) -> writer.write(out,
				new TaggedHeader(true, RdmapOpcode.RDMA_WRITE, 0xcafe0001, 0x7f0012345000L), payload, 0, 8));
		Fpdu fpdu = parse(RDMA_WRITE);
		assertThat(fpdu.taggedHeader()).isEqualTo(new TaggedHeader(true, RdmapOpcode.RDMA_WRITE, 0xcafe0001, 0x7f0012345000L));
		assertThat(fpdu.payloadLength()).isEqualTo(8);
	}

	@Test
	void readRequest() {
		ReadRequest request = new ReadRequest(0x101, 0x1000, 0x2000, 0xcafe0002, 0x7f0012340000L);
		assertWritten(READ_REQUEST, (writer, out) -> writer.writeReadRequest(out, 1, request));
		Fpdu fpdu = parse(READ_REQUEST);
		assertThat(fpdu.readRequest()).isEqualTo(request);
		assertThat(fpdu.queueNumber()).isEqualTo(1);
		assertThat(fpdu.readSize()).isEqualTo(0x2000);
		assertThat(fpdu.readSourceTaggedOffset()).isEqualTo(0x7f0012340000L);
	}

	@Test
	void readResponse() {
		ByteBuffer payload = ByteBuffer.wrap("abc".getBytes(StandardCharsets.US_ASCII));
		assertWritten(READ_RESPONSE, (writer, out) -> writer.writeTagged(out, true, RdmapOpcode.RDMA_READ_RESPONSE, 0x101,
				0x1000, payload, 0, 3));
		Fpdu fpdu = parse(READ_RESPONSE);
		assertThat(fpdu.opcode()).isEqualTo(RdmapOpcode.RDMA_READ_RESPONSE);
		assertThat(fpdu.stag()).isEqualTo(0x101);
	}

	@Test
	void terminate() {
		byte[] writeHeader = Hex.hex("c1 40 ca fe 00 01 00 00 7f 00 12 34 50 00");
		TerminateMessage message = TerminateMessage.of(TerminateError.DDP_TAGGED_INVALID_STAG, 22, writeHeader, null);
		assertWritten(TERMINATE, (writer, out) -> writer.writeTerminate(out, 1, message));
		Fpdu fpdu = parse(TERMINATE);
		assertThat(fpdu.terminate()).isEqualTo(message);
		assertThat(fpdu.terminate().error()).contains(TerminateError.DDP_TAGGED_INVALID_STAG);
	}

	private void assertWritten(String vector, Write write) {
		byte[] expected = Hex.hex(vector);
		ByteBuffer out = ByteBuffer.allocate(128);
		int written = write.to(this.withCrc, out);
		assertThat(written).isEqualTo(expected.length);
		assertThat(Hex.spaced(out.flip())).isEqualTo(Hex.spaced(expected));

		// CRC off: same bytes, CRC field zero (RFC 5044 §4.4).
		for (int i = expected.length - 4; i < expected.length; i++) {
			expected[i] = 0;
		}
		ByteBuffer plain = ByteBuffer.allocate(128);
		write.to(this.withoutCrc, plain);
		assertThat(Hex.spaced(plain.flip())).isEqualTo(Hex.spaced(expected));
	}

	private static Fpdu parse(String vector) {
		ByteBuffer in = Hex.buffer(vector);
		Fpdu fpdu = new Fpdu();
		assertThat(new FpduParser(FpduParser.Config.of(true)).next(in, fpdu)).isTrue();
		assertThat(in.hasRemaining()).isFalse();
		assertThat(fpdu.last()).isTrue();
		return fpdu;
	}

	@FunctionalInterface
	private interface Write {

		int to(FpduWriter writer, ByteBuffer out);

	}

}
