package io.rpcrdma.verbs.siw.wire;

import io.rpcrdma.xdr.Hex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class TerminateMessageTest {

	@Test
	void readRequestProtectionErrorQuotesDdpAndRdmapHeaders() {
		byte[] ddp = Hex.hex("41 41 00000000 00000001 00000001 00000000");
		byte[] rdmap = Hex.hex("""
				00 00 01 01  00 00 00 00 00 00 10 00  // sink STag and TO
				00 00 20 00                           // size
				ca fe 00 02  00 00 7f 00 12 34 00 00  // source STag and TO
				""");
		TerminateMessage terminate = TerminateMessage.of(TerminateError.RDMAP_ACCESS_RIGHTS_VIOLATION, 46, ddp, rdmap);
		ByteBuffer body = ByteBuffer.allocate(terminate.length());
		terminate.encode(body);
		assertThat(Hex.spaced(body.flip())).isEqualTo(Hex.spaced(Hex.hex("""
				01                                    // layer 0 (RDMAP), error type 1 (remote protection)
				02                                    // error code 0x02: access rights violation
				e0 00                                 // M=1 D=1 R=1
				00 2e                                 // DDP Segment Length 46
				41 41 00000000 00000001 00000001 00000000   // terminated untagged DDP header
				00 00 01 01  00 00 00 00 00 00 10 00  // terminated Read Request header
				00 00 20 00
				ca fe 00 02  00 00 7f 00 12 34 00 00
				""")));
		assertThat(TerminateMessage.decode(body, 0, body.limit())).isEqualTo(terminate);
	}

	@Test
	void catastrophicErrorCarriesNoHeaders() {
		TerminateMessage terminate = TerminateMessage.of(TerminateError.RDMAP_CATASTROPHIC_STREAM);
		ByteBuffer body = ByteBuffer.allocate(terminate.length());
		terminate.encode(body);
		assertThat(Hex.spaced(body.flip())).isEqualTo("02 07 00 00");
		assertThat(TerminateMessage.decode(body, 0, 4).error()).contains(TerminateError.RDMAP_CATASTROPHIC_STREAM);
	}

	@Test
	void siwStyleRBitWithoutRdmapHeaderIsReadAsNoRdmapHeader() {
		ByteBuffer body = Hex.buffer("""
				01 09 e0 00                                 // RDMAP protection error, cannot invalidate; M D R
				00 08                                       // siw: payload length of the Send
				41 44 12345678 00000000 00000001 00000000   // the Send with Invalidate's DDP header, nothing after
				""");
		TerminateMessage terminate = TerminateMessage.decode(body, 0, body.limit());
		assertThat(terminate.error()).contains(TerminateError.RDMAP_STAG_CANNOT_BE_INVALIDATED);
		assertThat(terminate.ddpHeaderIncluded()).isTrue();
		assertThat(terminate.rdmapHeaderIncluded()).isFalse();
		assertThat(terminate.ddpSegmentLength()).isEqualTo(8);
	}

	@Test
	void linuxsLittleEndianTerminateControlIsReadAsItMeans() {
		// What Linux's siw sent in the interop lab (Debian 6.1.0, x86-64) for an RDMA Write
		// naming an STag it never issued: M and D in the third byte's low bits.
		ByteBuffer body = Hex.buffer("""
				11 00 03 00                                 // DDP, tagged buffer error, invalid STag; "M D"
				0f a0                                       // the segment's payload length
				80 42 01020304 0000000000001000             // the RDMA Write's tagged DDP header
				""");
		TerminateMessage terminate = TerminateMessage.decode(body, 0, body.limit());
		assertThat(terminate.error()).contains(TerminateError.DDP_TAGGED_INVALID_STAG);
		assertThat(terminate.ddpHeaderIncluded()).isTrue();
		assertThat(terminate.ddpSegmentLength()).isEqualTo(4000);
	}

	@Test
	void linuxsSwappedLayerAndErrorTypeNibblesAreSwappedBack() {
		// DDP layer (1), untagged buffer error (2), invalid MSN (3): Linux writes 0x21.
		ByteBuffer body = Hex.buffer("""
				21 03 03 00
				00 10
				41 41 00000000 00000001 00000009 00000000
				""");
		assertThat(TerminateMessage.decode(body, 0, body.limit()).error())
			.contains(TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE);
	}

	@Test
	void lengthNotMatchingTheHeaderBitsIsRefused() {
		ByteBuffer tooLong = Hex.buffer("11 00 00 00  ff ff");
		assertThatThrownBy(() -> TerminateMessage.decode(tooLong, 0, tooLong.limit())).isInstanceOf(RdmapHeaderException.class);
		ByteBuffer cut = Hex.buffer("11 00 c0 00  00 16  c1 40 ca fe");
		assertThatThrownBy(() -> TerminateMessage.decode(cut, 0, cut.limit())).isInstanceOf(RdmapHeaderException.class);
	}

	@Test
	void copiedHeaderLengthMustMatchItsTaggedBit() {
		assertThatThrownBy(() -> TerminateMessage.of(TerminateError.DDP_TAGGED_INVALID_STAG, 22, new byte[14], null))
			.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("untagged");
	}

}
