package io.rpcrdma.protocol;


import static io.rpcrdma.xdr.Hex.hex;
import static io.rpcrdma.xdr.Hex.words;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/** Byte-exact vectors and rules of the RFC 8797 connection private data. */
class Rfc8797PrivateDataTest {

	@Test
	void privateDataRoundTrip() {
		Rfc8797PrivateData data = Rfc8797PrivateData.of(true, 4096, 8192);
		byte[] wire = hex("""
				f6ab0e18 // Format Identifier
				01       // Version = 1
				01       // flags: reserved 0, I (remote invalidation) = 1
				03       // Max Send Size: 3 -> (3 + 1) * 1024 = 4096
				07       // Max Receive Size: 7 -> (7 + 1) * 1024 = 8192
				""");
		assertThat(words(data.encode())).isEqualTo(words(wire));
		assertThat(Rfc8797PrivateData.decode(wire)).contains(data);
	}

	@Test
	void sizesSpanOneToTwoHundredFiftySixKibibytes() {
		byte[] wire = hex("f6ab0e18 01 00 00 ff");
		assertThat(Rfc8797PrivateData.decode(wire)).contains(Rfc8797PrivateData.of(false, 1024, 256 * 1024));
		assertThat(Rfc8797PrivateData.of(false, 1024, 262144).encode()).containsExactly(wire);
	}

	@Test
	void sizesAreRoundedDownToWholeKibibytesAndCappedWhenEncoding() {
		Rfc8797PrivateData asked = Rfc8797PrivateData.of(false, 5000, 1 << 20);
		assertThat(asked.encode()).containsExactly(hex("f6ab0e18 01 00 03 ff"));
		assertThat(asked.effective()).isEqualTo(Rfc8797PrivateData.of(false, 4096, 262144));
		assertThat(Rfc8797PrivateData.decode(asked.encode())).contains(asked.effective());
	}

	@Test
	void sizesBelowOneKibibyteCannotBeExpressed() {
		assertThatIllegalArgumentException().isThrownBy(() -> Rfc8797PrivateData.of(false, 1023, 1024))
			.withMessageContaining("maxSendSize");
		assertThatIllegalArgumentException().isThrownBy(() -> new Rfc8797PrivateData(256, false, 1024, 1024));
	}

	@Test
	void shortPrivateDataIsAbsent() {
		assertThat(Rfc8797PrivateData.decode(new byte[0])).isEmpty();
		assertThat(Rfc8797PrivateData.decode(hex("f6ab0e18 01 01 03"))).isEmpty();
	}

	@Test
	void foreignFormatIdentifierIsAbsent() {
		assertThat(Rfc8797PrivateData.decode(hex("f6ab0e19 01 01 03 07"))).isEmpty();
		// RDMA-CM delivers a zero-filled private data area when the peer sent nothing.
		assertThat(Rfc8797PrivateData.decode(new byte[56])).isEmpty();
	}

	@Test
	void unknownVersionIsTreatedAsAbsent() {
		assertThat(Rfc8797PrivateData.decode(hex("f6ab0e18 02 01 03 07"))).isEmpty();
		assertThat(Rfc8797PrivateData.decode(hex("f6ab0e18 00 01 03 07"))).isEmpty();
	}

	@Test
	void reservedFlagBitsAndTrailingBytesAreIgnored() {
		byte[] padded = new byte[56];
		System.arraycopy(hex("f6ab0e18 01 fe 00 01"), 0, padded, 0, 8);
		padded[20] = 0x55;
		assertThat(Rfc8797PrivateData.decode(padded)).contains(Rfc8797PrivateData.of(false, 1024, 2048));
	}

	@Test
	void decodeReadsFromThePositionWithoutMovingIt() {
		ByteBuffer buffer = ByteBuffer.wrap(hex("ffffffff f6ab0e18 01 01 00 00"));
		buffer.position(4);
		assertThat(Rfc8797PrivateData.decode(buffer)).contains(Rfc8797PrivateData.of(true, 1024, 1024));
		assertThat(buffer.position()).isEqualTo(4);
	}

	@Test
	void encodeIntoBufferAdvancesItsPosition() {
		ByteBuffer buffer = ByteBuffer.allocate(12);
		buffer.position(2);
		Rfc8797PrivateData.of(false, 2048, 3072).encode(buffer);
		assertThat(buffer.position()).isEqualTo(10);
		assertThat(words(buffer.array())).isEqualTo(words(hex("0000 f6ab0e18 01 00 01 02 0000")));
	}

}
