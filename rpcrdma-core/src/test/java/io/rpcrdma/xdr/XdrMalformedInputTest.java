package io.rpcrdma.xdr;

import static io.rpcrdma.xdr.XdrDecoderTest.decoder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/**
 * What the decoder does with input that breaks RFC 4506: each class of malformation fails
 * with its own exception type, before the position moves past the bad item and before
 * anything is allocated from a count the sender chose.
 */
class XdrMalformedInputTest {

	@EachBuffer
	void truncatedIntIsReportedWithoutMovingThePosition(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "000000 /* only 3 of 4 bytes */");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(decoder::readInt)
			.withMessageContaining("int")
			.withMessageContaining("needed 4 bytes but only 3 remain");
		assertThat(decoder.position()).isZero();
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(decoder::readUnsignedInt);
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(decoder::readBoolean);
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(decoder::readFloat);
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> decoder.readLength("length", 9));
	}

	@EachBuffer
	void truncatedHyperIsReported(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000000 000000 /* only 7 of 8 bytes */");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(decoder::readHyper)
			.withMessageContaining("hyper")
			.withMessageContaining("needed 8 bytes but only 7 remain");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(decoder::readDouble);
		assertThat(decoder.position()).isZero();
	}

	@EachBuffer
	void truncatedOpaqueDataIsReported(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000008 /* length 8 */ 01020304 /* only 4 bytes */");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> decoder.readOpaque(100))
			.withMessageContaining("needed 8 bytes but only 4 remain");
	}

	@EachBuffer
	void truncatedPaddingIsReported(BufferKind kind) {
		// RFC 4506 §4.10: the padding is part of the item, so 5 bytes of data need 8.
		XdrDecoder opaque = decoder(kind, "00000005 /* length 5 */ 0102030405 /* data, no padding */");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> opaque.readOpaque(100))
			.withMessageContaining("needed 8 bytes but only 5 remain");
		XdrDecoder string = decoder(kind, "00000001 /* length 1 */ 61 0000 /* 2 of 3 padding bytes */");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> string.readString(100));
		XdrDecoder fixed = decoder(kind, "010203 /* opaque[3] without its padding byte */");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> fixed.readFixedOpaque(3));
		XdrDecoder skipped = decoder(kind, "010203");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> skipped.skip(3));
	}

	@EachBuffer
	void lengthOverTheLimitIsReportedBeforeTheData(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000011 /* length 17 */ 00000000");
		assertThatExceptionOfType(XdrLimitExceededException.class).isThrownBy(() -> decoder.readOpaque(16))
			.withMessageContaining("of 17 exceeds the limit of 16");
		XdrDecoder string = decoder(kind, "00000011 /* length 17 */");
		assertThatExceptionOfType(XdrLimitExceededException.class).isThrownBy(() -> string.readString(16));
	}

	@EachBuffer
	void arrayCountOverTheLimitIsReported(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000011 /* count 17 */ 00000000");
		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> decoder.readArrayCount("gids", 16, 4))
			.withMessageContaining("gids count of 17 exceeds the limit of 16");
	}

	@EachBuffer
	void arrayCountLargerThanTheRemainingBytesIsReportedBeforeAllocation(BufferKind kind) {
		// The limit allows the count, but 1,000,000 four-byte elements cannot be in 8 bytes.
		XdrDecoder decoder = decoder(kind, "000f4240 /* count 1,000,000 */ 00000001 00000002");
		assertThatExceptionOfType(XdrTruncatedException.class)
			.isThrownBy(() -> decoder.readArrayCount("ints", Integer.MAX_VALUE, 4))
			.withMessageContaining("ints of 1000000 elements")
			.withMessageContaining("needed 4000000 bytes but only 8 remain");
	}

	@Test
	void hostileArrayCountAllocatesNothingFromTheCount() {
		// A decoder that allocated before checking would ask for ~2 GB here.
		long allocated = AllocationMeter.bytesAllocatedBy(() -> {
			XdrDecoder decoder = decoder(BufferKind.HEAP, "1fffffff /* count 536,870,911 */ 00000001");
			int count = decoder.readArrayCount("ints", Integer.MAX_VALUE, 4);
			int[] values = new int[count];
			assertThat(values).isNotNull();
		});
		assertThat(allocated).isLessThan(64 * 1024);
	}

	@EachBuffer
	void hugeUnsignedLengthIsNotMistakenForANegativeOne(BufferKind kind) {
		// 0xffffffff is 4294967295 (RFC 4506 §4.10 lengths are unsigned), never -1.
		XdrDecoder decoder = decoder(kind, "ffffffff /* length 2^32 - 1 */ 00000000");
		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> decoder.readOpaque(Integer.MAX_VALUE))
			.withMessageContaining("4294967295");
		XdrDecoder count = decoder(kind, "80000000 /* count 2^31 */");
		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> count.readArrayCount("ints", Integer.MAX_VALUE, 4))
			.withMessageContaining("2147483648");
		XdrDecoder length = decoder(kind, "80000000 /* length 2^31 */");
		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> length.readLength("length", Integer.MAX_VALUE));
	}

	@EachBuffer
	void lengthWithinTheLimitButBeyondTheDataIsTruncation(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "7fffffff /* length 2^31 - 1 */ 00000000");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> decoder.readOpaque(Integer.MAX_VALUE))
			.withMessageContaining("needed 2147483648 bytes");
	}

	@EachBuffer
	void negativeLengthsFromTheCallerAreRejected(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000001 00000002");
		assertThatExceptionOfType(XdrInvalidValueException.class).isThrownBy(() -> decoder.readFixedOpaque(-1));
		decoder.readInt();
		assertThatIllegalArgumentException().isThrownBy(() -> decoder.skip(-4));
		assertThat(decoder.position()).as("a negative skip must not move backwards").isEqualTo(4);
		assertThatIllegalArgumentException().isThrownBy(() -> decoder.readArrayCount("ints", 9, 0));
	}

	@EachBuffer
	void booleanOtherThanZeroOrOneIsInvalid(BufferKind kind) {
		// RFC 4506 §4.4: bool is enum { FALSE = 0, TRUE = 1 }; nothing else is a boolean.
		for (String value : new String[] { "00000002", "ffffffff", "00000100", "80000000" }) {
			XdrDecoder decoder = decoder(kind, value);
			assertThatExceptionOfType(XdrInvalidValueException.class).as(value)
				.isThrownBy(decoder::readBoolean)
				.withMessageContaining("must be 0 or 1");
		}
	}

	@EachBuffer
	void invalidUtf8IsReported(BufferKind kind) {
		String[] invalid = { "00000002 c3280000 /* bad continuation byte */",
				"00000002 c0af0000 /* overlong encoding of '/' */",
				"00000003 eda08000 /* an encoded surrogate (CESU-8) */",
				"00000001 80000000 /* a lone continuation byte */",
				"00000002 e2820000 /* a sequence cut short */",
				"00000004 f4908080 /* beyond U+10FFFF */", "00000001 ff000000 /* never valid in UTF-8 */" };
		for (String vector : invalid) {
			XdrDecoder decoder = decoder(kind, vector);
			assertThatExceptionOfType(XdrInvalidValueException.class).as(vector)
				.isThrownBy(() -> decoder.readString(16))
				.withMessageContaining("not valid UTF-8");
		}
	}

	@Test
	void everyDecodingFailureIsAnXdrException() {
		assertThat(XdrException.class).isAssignableFrom(XdrTruncatedException.class)
			.isAssignableFrom(XdrLimitExceededException.class)
			.isAssignableFrom(XdrInvalidValueException.class)
			.isAssignableFrom(XdrOverflowException.class);
	}

}
