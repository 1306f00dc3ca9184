package io.rpcrdma.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * RFC 5666 §3.9: an RDMA_MSGP receiver's decoder skips the pad bytes a sender put before
 * the data of opaques of at least rdma_thresh bytes, aligning them to rdma_align in the
 * receive buffer.
 */
class OpaquePaddingTest {

	/** A 36-byte RDMA_MSGP header precedes the RPC message in the receive buffer. */
	private static final int HEADER = 36;

	@Test
	void theDataOfALargeOpaqueStartsAtTheNextAlignmentBoundaryOfTheReceiveBuffer() {
		XdrDecoder decoder = new XdrDecoder(Hex.buffer("""
				00000005                     /* an int at stream position 36 */
				00000020                     /* opaque<> length 32 >= rdma_thresh 16, ends at 44 */
				00000000 00000000 00000000 00000000 00000000  /* 20 pad bytes up to 64 */
				01020304 05060708 090a0b0c 0d0e0f10 11121314 15161718 191a1b1c 1d1e1f20
				00000003 414243 00           /* opaque<> length 3 < rdma_thresh: no padding */
				"""));
		decoder.withOpaquePadding(new OpaquePadding(64, 16, HEADER));

		assertThat(decoder.readInt()).isEqualTo(5);
		assertThat(Hex.spaced(decoder.readOpaqueBytes(64)))
			.isEqualTo("01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f 20");
		assertThat(decoder.readString(8)).isEqualTo("ABC");
		assertThat(decoder.remaining()).isZero();
	}

	@Test
	void dataAlreadyAlignedGetsNoPadding() {
		XdrDecoder decoder = new XdrDecoder(Hex.buffer("""
				00000000 00000000 00000000 00000010   /* length 16 ends at stream position 64 */
				00112233 44556677 8899aabb ccddeeff
				"""));
		decoder.withOpaquePadding(new OpaquePadding(64, 16, 48));

		decoder.readInt();
		decoder.readInt();
		decoder.readInt();
		assertThat(Hex.spaced(decoder.readOpaqueBytes(16))).isEqualTo("00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff");
	}

	@Test
	void paddingBeyondTheMessageIsATruncationNotACrash() {
		XdrDecoder decoder = new XdrDecoder(Hex.buffer("00000020 00000000"));
		decoder.withOpaquePadding(new OpaquePadding(1L << 31, 16, 0));

		assertThatThrownBy(() -> decoder.readOpaque(64)).isInstanceOf(XdrTruncatedException.class)
			.hasMessageContaining("padding");
	}

	@Test
	void anAlignmentOfFourOrLessMeansXdrsOwnPaddingOnly() {
		assertThat(new OpaquePadding(4, 0, 2).padding(0, 100)).isZero();
		assertThat(new OpaquePadding(0, 0, 2).padding(0, 100)).isZero();
		assertThat(new OpaquePadding(8, 0, 4).padding(0, 100)).isEqualTo(4);
	}

}
