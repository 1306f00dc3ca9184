package io.rpcrdma.xdr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class XdrTest {

	@Test
	void padRoundsUpToAMultipleOfFour() {
		// RFC 4506 §3: every item is a multiple of four bytes long.
		assertThat(new long[] { Xdr.pad(0), Xdr.pad(1), Xdr.pad(2), Xdr.pad(3), Xdr.pad(4), Xdr.pad(5) })
			.containsExactly(0, 4, 4, 4, 4, 8);
		assertThat(Xdr.pad(Integer.MAX_VALUE)).isEqualTo(1L << 31);
		assertThat(Xdr.pad(0xFFFF_FFFFL)).isEqualTo(1L << 32);
	}

	@Test
	void paddingIsTheZeroBytesAfterTheData() {
		assertThat(new int[] { Xdr.padding(0), Xdr.padding(1), Xdr.padding(2), Xdr.padding(3), Xdr.padding(4) })
			.containsExactly(0, 3, 2, 1, 0);
		assertThat(Xdr.padding(0xFFFF_FFFFL)).isEqualTo(1);
	}

}
