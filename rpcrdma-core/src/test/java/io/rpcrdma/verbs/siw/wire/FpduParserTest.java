package io.rpcrdma.verbs.siw.wire;

import io.rpcrdma.xdr.Hex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class FpduParserTest {

	private final Fpdu fpdu = new Fpdu();

	@Test
	void byteAtATimeDeliveryYieldsEveryFpduExactlyWhenItsLastByteArrives() {
		byte[] stream = concat(FpduVectorsTest.SEND, FpduVectorsTest.RDMA_WRITE, FpduVectorsTest.READ_REQUEST,
				FpduVectorsTest.READ_RESPONSE, FpduVectorsTest.SEND_WITH_INVALIDATE, FpduVectorsTest.TERMINATE);
		List<Integer> boundaries = new ArrayList<>();
		int end = 0;
		for (String vector : List.of(FpduVectorsTest.SEND, FpduVectorsTest.RDMA_WRITE, FpduVectorsTest.READ_REQUEST,
				FpduVectorsTest.READ_RESPONSE, FpduVectorsTest.SEND_WITH_INVALIDATE, FpduVectorsTest.TERMINATE)) {
			end += Hex.hex(vector).length;
			boundaries.add(end);
		}
		FpduParser parser = new FpduParser(FpduParser.Config.of(true));
		ByteBuffer receive = ByteBuffer.allocateDirect(256);
		List<RdmapOpcode> opcodes = new ArrayList<>();
		for (int i = 0; i < stream.length; i++) {
			receive.put(stream[i]).flip();
			boolean parsed = parser.next(receive, this.fpdu);
			assertThat(parsed).as("FPDU complete after byte %d", i + 1).isEqualTo(boundaries.contains(i + 1));
			if (parsed) {
				opcodes.add(this.fpdu.opcode());
				assertThat(parser.next(receive, this.fpdu)).isFalse();
			}
			receive.compact();
		}
		assertThat(opcodes).containsExactly(RdmapOpcode.SEND, RdmapOpcode.RDMA_WRITE, RdmapOpcode.RDMA_READ_REQUEST,
				RdmapOpcode.RDMA_READ_RESPONSE, RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.TERMINATE);
		parser.endOfStream(receive.flip());
	}

	@Test
	void payloadIsAViewOfTheReceiveBufferNotACopy() {
		ByteBuffer in = Hex.buffer(FpduVectorsTest.SEND);
		assertThat(new FpduParser(FpduParser.Config.of(true)).next(in, this.fpdu)).isTrue();
		in.put(this.fpdu.payloadOffset(), (byte) 'j');
		assertThat(StandardCharsets.US_ASCII.decode(this.fpdu.payload()).toString()).isEqualTo("jello");
	}

	@Test
	void littleEndianReceiveBufferIsReadInNetworkOrderAndLeftAsItWas() {
		ByteBuffer in = Hex.buffer(FpduVectorsTest.RDMA_WRITE).order(ByteOrder.LITTLE_ENDIAN);
		assertThat(new FpduParser(FpduParser.Config.of(true)).next(in, this.fpdu)).isTrue();
		assertThat(this.fpdu.stag()).isEqualTo(0xcafe0001);
		assertThat(this.fpdu.taggedOffset()).isEqualTo(0x7f0012345000L);
		assertThat(in.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
	}

	@Test
	void garbageIsRefusedFromItsFirstFourBytesWhenCrcIsOff() {
		ByteBuffer in = ByteBuffer.allocate(65_600);
		in.put("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)).flip();
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(false)).next(in, this.fpdu))
			.isInstanceOf(DdpHeaderException.class)
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError())
				.contains(TerminateError.DDP_UNTAGGED_INVALID_VERSION));
	}

	@Test
	void garbageFailsTheCrcWhenCrcIsOn() {
		byte[] junk = new byte[64];
		junk[1] = 30; // plausible ULPDU length
		junk[2] = 0x41;
		junk[3] = 0x43;
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(true)).next(ByteBuffer.wrap(junk), this.fpdu))
			.isInstanceOf(FpduCrcException.class)
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError()).contains(TerminateError.MPA_CRC_ERROR));
	}

	@Test
	void truncatedStreamIsReportedAtEndOfStream() {
		byte[] send = Hex.hex(FpduVectorsTest.SEND);
		ByteBuffer in = ByteBuffer.allocate(256).put(send, 0, send.length - 3).flip();
		FpduParser parser = new FpduParser(FpduParser.Config.of(true));
		assertThat(parser.next(in, this.fpdu)).isFalse();
		assertThatThrownBy(() -> parser.endOfStream(in)).isInstanceOf(FpduTruncatedException.class)
			.hasMessageContaining(" of " + send.length)
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError())
				.contains(TerminateError.MPA_TCP_CONNECTION_LOST));
	}

	@Test
	void lengthAboveTheConfiguredMaximumIsRefusedFromTheLengthFieldAlone() {
		FpduParser parser = new FpduParser(new FpduParser.Config(false, 1000, true));
		ByteBuffer in = ByteBuffer.allocate(4096).put(Hex.hex("03 e9")).flip(); // 1001
		assertThatThrownBy(() -> parser.next(in, this.fpdu)).isInstanceOf(FpduLengthException.class)
			.hasMessageContaining("1001").hasMessageContaining("1000")
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError())
				.contains(TerminateError.MPA_FPDU_FRAMING_ERROR));
		assertThat(parser.next(ByteBuffer.allocate(4096).put(Hex.hex("03 e8")).flip(), this.fpdu)).isFalse();
	}

	@Test
	void lengthTheReceiveBufferCanNeverHoldIsRefusedAtOnce() {
		ByteBuffer small = ByteBuffer.allocate(1024);
		small.put(Hex.hex("ff ff 41 43")).flip();
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(false)).next(small, this.fpdu))
			.isInstanceOf(FpduLengthException.class).hasMessageContaining("enlarge the receive buffer");
	}

	@Test
	void lengthShorterThanAnyDdpHeaderIsRefused() {
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(false)).next(ByteBuffer.wrap(Hex.hex("00 0d")),
				this.fpdu))
			.isInstanceOf(FpduLengthException.class);
	}

	@Test
	void untaggedSegmentShorterThanItsHeaderIsRefused() {
		byte[] wire = Hex.hex("""
				00 10                         // ULPDU 16 < 18
				41 43 00000000 00000000 00000001 0000  // cut-off untagged header
				00 00                         // pad
				00 00 00 00                   // CRC off
				""");
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(false)).next(ByteBuffer.wrap(wire), this.fpdu))
			.isInstanceOf(FpduLengthException.class).hasMessageContaining("18-byte");
	}

	@Test
	void corruptedPayloadFailsTheCrc() {
		byte[] wire = Hex.hex(FpduVectorsTest.SEND);
		wire[20] ^= 0x01;
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(true)).next(ByteBuffer.wrap(wire), this.fpdu))
			.isInstanceOf(FpduCrcException.class)
			.satisfies(e -> assertThat(((FpduCrcException) e).received()).isEqualTo(0x0cb190b9));
	}

	@Test
	void crcFieldIsIgnoredWhenCrcIsOff() {
		assertThat(new FpduParser(FpduParser.Config.of(false)).next(Hex.buffer(FpduVectorsTest.SEND), this.fpdu))
			.isTrue();
		assertThat(this.fpdu.crc()).isEqualTo(0x0cb190b9);
	}

	@Test
	void nonZeroPadIsRefusedUnlessTolerated() {
		byte[] wire = Hex.hex(FpduVectorsTest.SEND);
		wire[25] = 0x55; // second pad byte
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(false)).next(ByteBuffer.wrap(wire), this.fpdu))
			.isInstanceOf(FpduPaddingException.class);
		assertThat(new FpduParser(new FpduParser.Config(false, Mpa.MAX_ULPDU_LENGTH, false)).next(ByteBuffer.wrap(wire),
				this.fpdu)).isTrue();
	}

	@Test
	void unsupportedDdpVersionMapsToTheBufferModelsVersionError() {
		byte[] untagged = Hex.hex(FpduVectorsTest.SEND);
		untagged[2] = 0x42; // DV=2
		assertError(untagged, DdpHeaderException.class, TerminateError.DDP_UNTAGGED_INVALID_VERSION);
		byte[] tagged = Hex.hex(FpduVectorsTest.RDMA_WRITE);
		tagged[2] = (byte) 0xC0; // DV=0
		assertError(tagged, DdpHeaderException.class, TerminateError.DDP_TAGGED_INVALID_VERSION);
	}

	@Test
	void unsupportedRdmapVersionIsRefused() {
		byte[] wire = Hex.hex(FpduVectorsTest.SEND);
		wire[3] = (byte) 0x83; // RV=2
		assertError(wire, RdmapHeaderException.class, TerminateError.RDMAP_INVALID_VERSION);
	}

	@Test
	void undefinedOpcodeIsRefused() {
		byte[] wire = Hex.hex(FpduVectorsTest.SEND);
		wire[3] = 0x48; // opcode 8
		assertError(wire, RdmapHeaderException.class, TerminateError.RDMAP_UNEXPECTED_OPCODE);
	}

	@Test
	void opcodeOnTheWrongBufferModelIsRefused() {
		byte[] wire = Hex.hex(FpduVectorsTest.SEND);
		wire[2] = (byte) 0xC1; // Send marked tagged
		assertError(wire, RdmapHeaderException.class, TerminateError.RDMAP_UNEXPECTED_OPCODE);
	}

	@Test
	void readRequestMustBeOneSegmentWithoutExtraPayload() {
		byte[] notLast = Hex.hex(FpduVectorsTest.READ_REQUEST);
		notLast[2] = 0x01;
		assertError(notLast, DdpHeaderException.class, TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG);

		ByteBuffer longer = ByteBuffer.allocate(64);
		new FpduWriter(false).writeUntagged(longer, true, RdmapOpcode.RDMA_READ_REQUEST, 0, 1, 1, 0,
				ByteBuffer.allocate(32), 0, 32);
		assertError(longer.flip(), DdpHeaderException.class, TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG);

		ByteBuffer shorter = ByteBuffer.allocate(64);
		new FpduWriter(false).writeUntagged(shorter, true, RdmapOpcode.RDMA_READ_REQUEST, 0, 1, 1, 0,
				ByteBuffer.allocate(8), 0, 8);
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(false)).next(shorter.flip(), this.fpdu))
			.isInstanceOf(FpduLengthException.class);
	}

	@Test
	void terminateBodyMustMatchItsHeaderControlBits() {
		ByteBuffer out = ByteBuffer.allocate(64);
		// M set without D, as a hand-made body
		new FpduWriter(false).writeUntagged(out, true, RdmapOpcode.TERMINATE, 0, 2, 1, 0,
				ByteBuffer.wrap(Hex.hex("11 00 80 00")), 0, 4);
		assertThat(new FpduParser(FpduParser.Config.of(false)).next(out.flip(), this.fpdu)).isTrue();
		assertThatThrownBy(this.fpdu::terminate).isInstanceOf(RdmapHeaderException.class).hasMessageContaining("M without D");
	}

	@Test
	void parsingAllocatesNothingInSteadyState() {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		byte[] stream = concat(FpduVectorsTest.SEND, FpduVectorsTest.RDMA_WRITE, FpduVectorsTest.READ_REQUEST,
				FpduVectorsTest.READ_RESPONSE);
		ByteBuffer in = ByteBuffer.allocateDirect(stream.length).put(stream).flip();
		FpduParser parser = new FpduParser(FpduParser.Config.of(true));
		DdpReceiveValidator validator = new DdpReceiveValidator();
		long checksum = 0;
		for (int round = 0; round < 20_000; round++) { // warm up, let the JIT settle
			checksum += parseAll(parser, in);
		}
		long before = threads.getCurrentThreadAllocatedBytes();
		for (int round = 0; round < 20_000; round++) {
			checksum += parseAll(parser, in);
		}
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		validator.hashCode();
		assertThat(checksum).isPositive();
		// 80,000 FPDUs: even one small object each would be megabytes.
		assertThat(allocated).as("bytes allocated while parsing 80,000 FPDUs").isLessThan(64 * 1024);
	}

	private long parseAll(FpduParser parser, ByteBuffer in) {
		in.rewind();
		long sum = 0;
		while (parser.next(in, this.fpdu)) {
			sum += this.fpdu.payload().remaining() + this.fpdu.opcode().code() + 1;
		}
		return sum;
	}

	private void assertError(byte[] wire, Class<? extends IwarpWireException> type, TerminateError error) {
		assertError(ByteBuffer.wrap(wire), type, error);
	}

	private void assertError(ByteBuffer wire, Class<? extends IwarpWireException> type, TerminateError error) {
		assertThatThrownBy(() -> new FpduParser(FpduParser.Config.of(false)).next(wire, this.fpdu)).isInstanceOf(type)
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError()).contains(error));
	}

	private static byte[] concat(String... vectors) {
		ByteBuffer all = ByteBuffer.allocate(4096);
		for (String vector : vectors) {
			all.put(Hex.hex(vector));
		}
		byte[] bytes = new byte[all.flip().remaining()];
		all.get(bytes);
		return bytes;
	}

}
