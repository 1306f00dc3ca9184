package io.rpcrdma.verbs.siw.wire;

import io.rpcrdma.xdr.Hex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class MpaCodecTest {

	private final MpaCodec codec = new MpaCodec();

	static final String ENHANCED_REQUEST = """
			4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65  // key "MPA ID Req Frame"
			10                                               // M=0 C=0 R=0 enhanced=1, reserved 0
			02                                               // revision 2 (RFC 6581)
			00 08                                            // PD_Length: 4 IRD/ORD + 4 ULP
			00 10                                            // IRD 16, no peer-to-peer, no Send RTR
			00 08                                            // ORD 8, no Write/Read RTR
			f0 0d ca fe                                      // ULP private data
			""";

	static final String ENHANCED_CRC_REPLY = """
			4d 50 41 20 49 44 20 52 65 70 20 46 72 61 6d 65  // key "MPA ID Rep Frame"
			50                                               // C=1 enhanced=1
			02                                               // revision 2
			00 04                                            // PD_Length: IRD/ORD only
			00 08                                            // IRD 8
			00 10                                            // ORD 16
			""";

	static final String REVISION_1_CRC_REQUEST = """
			4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65  // key "MPA ID Req Frame"
			40                                               // C=1
			01                                               // revision 1 (RFC 5044)
			00 00                                            // no private data
			""";

	static final String PEER_TO_PEER_REQUEST = """
			4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65  // key "MPA ID Req Frame"
			10                                               // enhanced
			02                                               // revision 2
			00 04                                            // PD_Length
			80 04                                            // peer-to-peer, IRD 4
			c0 02                                            // Write RTR and Read RTR offered, ORD 2
			""";

	static final String REJECT_REPLY = """
			4d 50 41 20 49 44 20 52 65 70 20 46 72 61 6d 65  // key "MPA ID Rep Frame"
			20                                               // R=1 (markers refused), M=0 C=0
			02                                               // revision 2
			00 03                                            // PD_Length
			6e 6f 21                                         // "no!"
			""";

	@Test
	void enhancedRequestEncodesFieldByField() {
		MpaFrame request = MpaFrame.request(false, MpaIrdOrd.of(16, 8), Hex.hex("f00dcafe"));
		assertThat(Hex.spaced(this.codec.encode(request))).isEqualTo(Hex.spaced(Hex.hex(ENHANCED_REQUEST)));
		assertThat(decode(ENHANCED_REQUEST, MpaFrame.Kind.REQUEST)).isEqualTo(request);
	}

	@Test
	void enhancedReplyWithCrcEncodesFieldByField() {
		MpaFrame reply = new MpaFrame(MpaFrame.Kind.REPLY, false, true, false, 2, MpaIrdOrd.of(8, 16), null);
		assertThat(Hex.spaced(this.codec.encode(reply))).isEqualTo(Hex.spaced(Hex.hex(ENHANCED_CRC_REPLY)));
		assertThat(decode(ENHANCED_CRC_REPLY, MpaFrame.Kind.REPLY)).isEqualTo(reply);
	}

	@Test
	void revisionOneRequestWithCrcAndNoPrivateData() {
		MpaFrame request = new MpaFrame(MpaFrame.Kind.REQUEST, false, true, false, 1, null, null);
		assertThat(Hex.spaced(this.codec.encode(request))).isEqualTo(Hex.spaced(Hex.hex(REVISION_1_CRC_REQUEST)));
		MpaFrame decoded = decode(REVISION_1_CRC_REQUEST, MpaFrame.Kind.REQUEST);
		assertThat(decoded.crc()).isTrue();
		assertThat(decoded.enhanced()).isFalse();
		assertThat(decoded.privateData()).isEmpty();
	}

	@Test
	void peerToPeerBitsSitInTheTopTwoBitsOfEachWord() {
		MpaFrame request = MpaFrame.request(false, new MpaIrdOrd(4, 2, true, false, true, true), null);
		assertThat(Hex.spaced(this.codec.encode(request))).isEqualTo(Hex.spaced(Hex.hex(PEER_TO_PEER_REQUEST)));
		assertThat(decode(PEER_TO_PEER_REQUEST, MpaFrame.Kind.REQUEST).irdOrd())
			.isEqualTo(new MpaIrdOrd(4, 2, true, false, true, true));
	}

	@Test
	void rejectReplyEncodesFieldByField() {
		MpaFrame reject = new MpaFrame(MpaFrame.Kind.REPLY, false, false, true, 2, null, "no!".getBytes());
		assertThat(Hex.spaced(this.codec.encode(reject))).isEqualTo(Hex.spaced(Hex.hex(REJECT_REPLY)));
		assertThat(decode(REJECT_REPLY, MpaFrame.Kind.REPLY).reject()).isTrue();
	}

	@Test
	void byteAtATimeDeliveryDecodesOnlyOnceComplete() {
		byte[] wire = Hex.hex(ENHANCED_REQUEST);
		ByteBuffer in = ByteBuffer.allocate(wire.length);
		for (int i = 0; i < wire.length; i++) {
			in.put(wire[i]).flip();
			Optional<MpaFrame> frame = this.codec.decode(in, MpaFrame.Kind.REQUEST);
			assertThat(frame.isPresent()).as("after %d bytes", i + 1).isEqualTo(i == wire.length - 1);
			if (frame.isEmpty()) {
				assertThat(in.position()).isZero();
				in.position(in.limit()).limit(in.capacity());
			}
		}
		assertThat(in.hasRemaining()).isFalse();
	}

	@Test
	void wrongKeyIsRefusedFromTheFirstDifferingByte() {
		ByteBuffer in = ByteBuffer.wrap("GET / HTTP/1.1".getBytes()).limit(1);
		assertThatThrownBy(() -> this.codec.decode(in, MpaFrame.Kind.REQUEST)).isInstanceOf(MpaInvalidKeyException.class)
			.hasMessageContaining("\"G\"");
	}

	@Test
	void replyKeyWhereARequestIsDueIsRefused() {
		assertThatThrownBy(() -> decode(ENHANCED_CRC_REPLY, MpaFrame.Kind.REQUEST))
			.isInstanceOf(MpaInvalidKeyException.class)
			.hasMessageContaining("MPA ID Req Frame")
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError())
				.contains(TerminateError.MPA_INVALID_REQUEST_OR_REPLY));
	}

	@Test
	void unsupportedRevisionIsRefused() {
		byte[] wire = Hex.hex(REVISION_1_CRC_REQUEST);
		wire[17] = 3;
		assertThatThrownBy(() -> this.codec.decode(ByteBuffer.wrap(wire), MpaFrame.Kind.REQUEST))
			.isInstanceOf(MpaUnsupportedRevisionException.class)
			.satisfies(e -> assertThat(((MpaUnsupportedRevisionException) e).revision()).isEqualTo(3));
		wire[17] = 0;
		assertThatThrownBy(() -> this.codec.decode(ByteBuffer.wrap(wire), MpaFrame.Kind.REQUEST))
			.isInstanceOf(MpaUnsupportedRevisionException.class);
	}

	@Test
	void oversizePrivateDataIsRefusedFromTheHeaderAlone() {
		byte[] header = Hex.hex("""
				4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65  // key
				00 02                                            // no flags, revision 2
				02 01                                            // PD_Length 513 > 512
				""");
		assertThatThrownBy(() -> this.codec.decode(ByteBuffer.wrap(header), MpaFrame.Kind.REQUEST))
			.isInstanceOf(MpaPrivateDataLengthException.class)
			.satisfies(e -> assertThat(((MpaPrivateDataLengthException) e).length()).isEqualTo(513));
	}

	@Test
	void siwLimitCanBeImposed() {
		MpaCodec siwLimited = new MpaCodec(MpaCodec.SIW_MAX_PRIVATE_DATA_LENGTH);
		MpaFrame request = MpaFrame.request(false, MpaIrdOrd.of(1, 1), new byte[253]);
		assertThatThrownBy(() -> siwLimited.encode(request)).isInstanceOf(MpaPrivateDataLengthException.class)
			.hasMessageContaining("257");
		ByteBuffer wire = this.codec.encode(request);
		assertThatThrownBy(() -> siwLimited.decode(wire, MpaFrame.Kind.REQUEST))
			.isInstanceOf(MpaPrivateDataLengthException.class);
	}

	@Test
	void frameBuilderRefusesMoreThan512BytesOfPrivateData() {
		assertThatThrownBy(() -> MpaFrame.request(false, MpaIrdOrd.of(1, 1), new byte[509]))
			.isInstanceOf(MpaPrivateDataLengthException.class);
		assertThat(MpaFrame.request(false, MpaIrdOrd.of(1, 1), new byte[508]).privateDataLength()).isEqualTo(512);
	}

	@Test
	void requestWithRejectFlagIsMalformed() {
		byte[] wire = Hex.hex(REVISION_1_CRC_REQUEST);
		wire[16] = 0x20;
		assertThatThrownBy(() -> this.codec.decode(ByteBuffer.wrap(wire), MpaFrame.Kind.REQUEST))
			.isInstanceOf(MpaFrameException.class).hasMessageContaining("Reject");
	}

	@Test
	void enhancedFrameTooShortForIrdOrdIsMalformed() {
		byte[] wire = Hex.hex("""
				4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65
				10 02 00 02    // enhanced, revision 2, only 2 bytes of private data
				00 01
				""");
		assertThatThrownBy(() -> this.codec.decode(ByteBuffer.wrap(wire), MpaFrame.Kind.REQUEST))
			.isInstanceOf(MpaFrameException.class).hasMessageContaining("IRD/ORD");
	}

	@Test
	void enhancedBitOfARevisionOneFrameIsAReservedBitAndIgnored() {
		byte[] wire = Hex.hex("""
				4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65
				18 01 00 02    // enhanced bit and siw's GSO bit set, revision 1
				ab cd          // plain ULP private data
				""");
		MpaFrame frame = this.codec.decode(ByteBuffer.wrap(wire), MpaFrame.Kind.REQUEST).orElseThrow();
		assertThat(frame.enhanced()).isFalse();
		assertThat(frame.privateData()).containsExactly(0xab, 0xcd);
	}

	@Test
	void encodeIntoTooSmallBufferWritesNothing() {
		ByteBuffer small = ByteBuffer.allocate(10);
		assertThatThrownBy(() -> this.codec.encode(MpaFrame.request(false, null, null), small))
			.isInstanceOf(java.nio.BufferOverflowException.class);
		assertThat(small.position()).isZero();
	}

	private MpaFrame decode(String annotated, MpaFrame.Kind kind) {
		ByteBuffer in = Hex.buffer(annotated);
		MpaFrame frame = this.codec.decode(in, kind).orElseThrow();
		assertThat(in.hasRemaining()).isFalse();
		return frame;
	}

}
