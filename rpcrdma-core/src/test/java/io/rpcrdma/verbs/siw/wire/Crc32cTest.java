package io.rpcrdma.verbs.siw.wire;

import io.rpcrdma.xdr.Hex;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The CRC primitive and the trailer byte order, checked against RFC 3720 appendix B.4 (iSCSI,
 * whose CRC32c RFC 5044 §4.4 adopts): the appendix lists the bytes each 32-byte pattern's CRC
 * travels as.
 */
class Crc32cTest {

	@Test
	void thirtyTwoZeroBytesGiveTheRfc3720CheckValueOnTheWireLeastSignificantByteFirst() {
		assertThat(trailerOf(new byte[32])).isEqualTo(Hex.hex("aa 36 91 8a"));
	}

	@Test
	void thirtyTwoOnesBytesMatchRfc3720() {
		byte[] data = new byte[32];
		java.util.Arrays.fill(data, (byte) 0xFF);
		assertThat(trailerOf(data)).isEqualTo(Hex.hex("43 ab a8 62"));
	}

	@Test
	void incrementingBytesMatchRfc3720() {
		byte[] data = new byte[32];
		for (int i = 0; i < 32; i++) {
			data[i] = (byte) i;
		}
		assertThat(trailerOf(data)).isEqualTo(Hex.hex("4e 79 dd 46"));
	}

	@Test
	void decrementingBytesMatchRfc3720() {
		byte[] data = new byte[32];
		for (int i = 0; i < 32; i++) {
			data[i] = (byte) (31 - i);
		}
		assertThat(trailerOf(data)).isEqualTo(Hex.hex("5c db 3f 11"));
	}

	@Test
	void trailerRoundTripsThroughGetCrc() {
		ByteBuffer buffer = ByteBuffer.allocate(4);
		Mpa.putCrc(buffer, 0, 0x8A9136AA);
		assertThat(Mpa.getCrc(buffer, 0)).isEqualTo(0x8A9136AA);
	}

	@Property
	void jdkCrc32cAgreesWithABitwiseReferenceImplementation(@ForAll @Size(max = 300) byte[] data) {
		ByteBuffer direct = ByteBuffer.allocateDirect(data.length + 3).put(new byte[3]).put(data);
		assertThat(Mpa.crc32c(new CRC32C(), direct, 3, data.length)).isEqualTo(referenceCrc32c(data));
	}

	private static byte[] trailerOf(byte[] data) {
		ByteBuffer buffer = ByteBuffer.allocate(4);
		Mpa.putCrc(buffer, 0, Mpa.crc32c(new CRC32C(), ByteBuffer.wrap(data), 0, data.length));
		return buffer.array();
	}

	// Castagnoli polynomial, reflected (0x82F63B78), initial value and final XOR all ones.
	static int referenceCrc32c(byte[] data) {
		int crc = 0xFFFFFFFF;
		for (byte b : data) {
			crc ^= b & 0xFF;
			for (int k = 0; k < 8; k++) {
				crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x82F63B78 : crc >>> 1;
			}
		}
		return ~crc;
	}

}
