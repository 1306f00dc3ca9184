package io.rpcrdma.xdr;

import static io.rpcrdma.xdr.Hex.hex;
import static io.rpcrdma.xdr.Hex.units;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * Byte-exact decoding of every XDR type of RFC 4506 §4 from heap, offset-heap, direct and
 * read-only buffers: the same annotated vectors as {@link XdrEncoderTest}, read back.
 */
class XdrDecoderTest {

	@EachBuffer
	void intIsFourBytesBigEndianTwosComplement(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000000 /* 0 */
				00000001 /* 1 */
				ffffffff /* -1, two's complement (RFC 4506 §4.1) */
				7fffffff /* 2^31 - 1 */
				80000000 /* -2^31 */
				01020304 /* most significant byte first */
				""");
		assertThat(decoder.readInt()).isZero();
		assertThat(decoder.readInt()).isEqualTo(1);
		assertThat(decoder.readInt()).isEqualTo(-1);
		assertThat(decoder.readInt()).isEqualTo(Integer.MAX_VALUE);
		assertThat(decoder.readInt()).isEqualTo(Integer.MIN_VALUE);
		assertThat(decoder.readInt()).isEqualTo(0x01020304);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void unsignedIntIsFourBytesBigEndian(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000000 /* 0 */
				80000000 /* 2^31 */
				ffffffff /* 2^32 - 1 (RFC 4506 §4.2) */
				""");
		assertThat(decoder.readUnsignedInt()).isZero();
		assertThat(decoder.readUnsignedInt()).isEqualTo(2147483648L);
		assertThat(decoder.readUnsignedInt()).isEqualTo(4294967295L);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void enumIsItsIntValue(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000002 /* RED */ 00000003 /* YELLOW */ 00000005 /* BLUE */");
		assertThat(new int[] { decoder.readInt(), decoder.readInt(), decoder.readInt() }).containsExactly(2, 3, 5);
	}

	@EachBuffer
	void booleanIsEnumFalseZeroTrueOne(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000000 /* FALSE (RFC 4506 §4.4) */ 00000001 /* TRUE */");
		assertThat(decoder.readBoolean()).isFalse();
		assertThat(decoder.readBoolean()).isTrue();
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void hyperIsEightBytesBigEndian(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				01020304 05060708 /* hyper, most significant byte first (RFC 4506 §4.5) */
				ffffffff ffffffff /* hyper -1 */
				80000000 00000000 /* hyper -2^63 */
				ffffffff ffffffff /* unsigned hyper 2^64 - 1: the same bits */
				""");
		assertThat(decoder.readHyper()).isEqualTo(0x0102030405060708L);
		assertThat(decoder.readHyper()).isEqualTo(-1L);
		assertThat(decoder.readHyper()).isEqualTo(Long.MIN_VALUE);
		assertThat(Long.toUnsignedString(decoder.readHyper())).isEqualTo("18446744073709551615");
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void floatIsIeeeSinglePrecision(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				3f800000 /* 1.0 (RFC 4506 §4.6) */
				c0200000 /* -2.5 */
				80000000 /* -0.0 */
				7f800000 /* +infinity */
				00000001 /* smallest subnormal */
				7fc00001 /* NaN with payload */
				""");
		assertThat(decoder.readFloat()).isEqualTo(1.0f);
		assertThat(decoder.readFloat()).isEqualTo(-2.5f);
		assertThat(Float.floatToRawIntBits(decoder.readFloat())).isEqualTo(0x80000000);
		assertThat(decoder.readFloat()).isEqualTo(Float.POSITIVE_INFINITY);
		assertThat(decoder.readFloat()).isEqualTo(Float.MIN_VALUE);
		assertThat(Float.floatToRawIntBits(decoder.readFloat())).isEqualTo(0x7fc00001);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void doubleIsIeeeDoublePrecision(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				3ff00000 00000000 /* 1.0 (RFC 4506 §4.7) */
				c0040000 00000000 /* -2.5 */
				fff00000 00000000 /* -infinity */
				00000000 00000001 /* smallest subnormal */
				7ff80000 00000001 /* NaN with payload */
				""");
		assertThat(decoder.readDouble()).isEqualTo(1.0);
		assertThat(decoder.readDouble()).isEqualTo(-2.5);
		assertThat(decoder.readDouble()).isEqualTo(Double.NEGATIVE_INFINITY);
		assertThat(decoder.readDouble()).isEqualTo(Double.MIN_VALUE);
		assertThat(Double.doubleToRawLongBits(decoder.readDouble())).isEqualTo(0x7ff8000000000001L);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void fixedOpaqueIsTheBytesThenPaddingToFour(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				/* opaque[0]: nothing */
				010203 00          /* opaque[3], 1 byte of padding (RFC 4506 §4.9) */
				01020304           /* opaque[4], none */
				01020304 05 000000 /* opaque[5], 3 bytes of padding */
				""");
		assertThat(Hex.bytes(decoder.readFixedOpaque(0))).isEmpty();
		assertThat(Hex.bytes(decoder.readFixedOpaque(3))).containsExactly(1, 2, 3);
		assertThat(decoder.position()).isEqualTo(4);
		assertThat(Hex.bytes(decoder.readFixedOpaque(4))).containsExactly(1, 2, 3, 4);
		assertThat(Hex.bytes(decoder.readFixedOpaque(5))).containsExactly(1, 2, 3, 4, 5);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void nonZeroPaddingIsIgnored(BufferKind kind) {
		// RFC 4506 §4.9 has senders write zeros; accepting other values costs nothing.
		XdrDecoder decoder = decoder(kind, "00000001 ab ffffff /* padding not zero */ 00000007");
		assertThat(Hex.bytes(decoder.readOpaque(8))).containsExactly(0xab);
		assertThat(decoder.readInt()).isEqualTo(7);
	}

	@EachBuffer
	void variableOpaqueIsLengthThenBytesThenPadding(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000000                   /* length 0 (RFC 4506 §4.10) */
				00000001 ab000000          /* length 1, 3 bytes of padding */
				00000004 01020304          /* length 4, no padding */
				00000005 05060708 09000000 /* length 5 */
				""");
		assertThat(Hex.bytes(decoder.readOpaque(0))).isEmpty();
		assertThat(decoder.readOpaqueBytes(1)).containsExactly(0xab);
		assertThat(Hex.bytes(decoder.readOpaque(4))).containsExactly(1, 2, 3, 4);
		assertThat(decoder.readOpaqueBytes(Integer.MAX_VALUE)).containsExactly(5, 6, 7, 8, 9);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void opaqueIsAZeroCopySliceOfTheSameKind(BufferKind kind) {
		ByteBuffer buffer = kind.wrap(hex("00000003 0a0b0c00 00000001"));
		XdrDecoder decoder = new XdrDecoder(buffer);
		ByteBuffer slice = decoder.readOpaque(3);
		assertThat(slice.remaining()).isEqualTo(3);
		assertThat(slice.isDirect()).isEqualTo(buffer.isDirect());
		assertThat(slice.isReadOnly()).isEqualTo(buffer.isReadOnly());
		assertThat(decoder.readInt()).as("the decoder moved past data and padding").isEqualTo(1);
		if (!buffer.isReadOnly()) {
			// The slice shares memory with the buffer: nothing was copied.
			buffer.put(buffer.position() - 8 + 1, (byte) 0x7b);
			assertThat(Hex.bytes(slice)).containsExactly(0x0a, 0x7b, 0x0c);
		}
	}

	@EachBuffer
	void stringIsLengthThenUtf8BytesThenPadding(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000000                            /* "" (RFC 4506 §4.11) */
				00000009 73696c6c 7970726f 67000000 /* "sillyprog" */
				00000002 c3a90000                   /* "é" */
				00000003 e282ac00                   /* "€" */
				00000004 f09f9880                   /* U+1F600 */
				00000004 61e282ac                   /* "a€" */
				""");
		assertThat(decoder.readString(0)).isEmpty();
		assertThat(decoder.readString(9)).isEqualTo("sillyprog");
		assertThat(decoder.readString(2)).isEqualTo("\u00e9");
		assertThat(decoder.readString(3)).isEqualTo("\u20ac");
		assertThat(decoder.readString(4)).isEqualTo("\ud83d\ude00");
		assertThat(decoder.readString(4)).isEqualTo("a\u20ac");
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void fixedArrayIsItsElementsWithoutACount(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000001 00000002 00000003 /* int[3] {1, 2, 3} (RFC 4506 §4.12) */
				00000001 61000000          /* string[2] element 0: "a" */
				00000005 62636465 66000000 /* element 1: "bcdef" */
				""");
		assertThat(new int[] { decoder.readInt(), decoder.readInt(), decoder.readInt() }).containsExactly(1, 2, 3);
		assertThat(new String[] { decoder.readString(8), decoder.readString(8) }).containsExactly("a", "bcdef");
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void variableArrayIsCountThenElements(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000000                   /* int<> {} (RFC 4506 §4.13) */
				00000002 00000007 00000008 /* int<> {7, 8} */
				""");
		assertThat(decoder.readArrayCount("empty", 4, 4)).isZero();
		int count = decoder.readArrayCount("ints", 4, 4);
		int[] values = new int[count];
		for (int i = 0; i < count; i++) {
			values[i] = decoder.readInt();
		}
		assertThat(values).containsExactly(7, 8);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void arrayCountAtExactlyTheLimitAndTheRemainingBytesIsAccepted(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000002 /* count */ 00000000 00000000 /* two 4-byte elements */");
		assertThat(decoder.readArrayCount("ints", 2, 4)).isEqualTo(2);
	}

	@EachBuffer
	void structIsItsComponentsInDeclarationOrder(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				fffffffe          /* a = -2 (RFC 4506 §4.14) */
				00000000 00000003 /* b = 3 */
				00000001          /* c = TRUE */
				00000001 04000000 /* d = {4} */
				""");
		assertThat(decoder.readInt()).isEqualTo(-2);
		assertThat(decoder.readHyper()).isEqualTo(3);
		assertThat(decoder.readBoolean()).isTrue();
		assertThat(decoder.readOpaqueBytes(4)).containsExactly(4);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void unionIsDiscriminantThenTheSelectedArmAndVoidTakesNoBytes(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000000          /* discriminant 0, arm void (RFC 4506 §4.15, §4.16) */
				00000001 0000002a /* discriminant 1, arm int 42 */
				""");
		assertThat(readUnion(decoder)).isNull();
		assertThat(decoder.position()).as("void took no bytes").isEqualTo(4);
		assertThat(readUnion(decoder)).isEqualTo(42);
		assertThat(decoder.remaining()).isZero();
	}

	private static Integer readUnion(XdrDecoder decoder) {
		return (decoder.readInt() == 0) ? null : decoder.readInt();
	}

	@EachBuffer
	void optionalDataIsABooleanThenTheValue(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, """
				00000001 00000001 61000000 /* TRUE, "a" (RFC 4506 §4.19) */
				00000001 00000001 62000000 /* TRUE, "b" */
				00000000                   /* FALSE: end of list */
				""");
		StringBuilder items = new StringBuilder();
		while (decoder.readBoolean()) {
			items.append(decoder.readString(8));
		}
		assertThat(items).hasToString("ab");
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void rfc4506Section7FileExample(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, XdrEncoderTest.RFC4506_FILE_EXAMPLE);
		assertThat(decoder.readString(255)).isEqualTo("sillyprog");
		assertThat(decoder.readInt()).as("filekind EXEC").isEqualTo(2);
		assertThat(decoder.readString(255)).as("interpretor").isEqualTo("lisp");
		assertThat(decoder.readString(255)).as("owner").isEqualTo("john");
		assertThat(new String(decoder.readOpaqueBytes(65535), StandardCharsets.US_ASCII)).isEqualTo("(quit)");
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void skipMovesPastDataAndPadding(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "01020304 05000000 /* 5 bytes and padding */ 00000009");
		assertThat(decoder.skip(5)).isSameAs(decoder);
		assertThat(decoder.readInt()).isEqualTo(9);
	}

	@EachBuffer
	void decodingStartsAtThePositionAndStopsAtTheLimit(BufferKind kind) {
		ByteBuffer buffer = kind.wrap(hex("ffffffff 00000005 ffffffff"));
		buffer.position(4).limit(8);
		XdrDecoder decoder = new XdrDecoder(buffer);
		assertThat(decoder.readInt()).isEqualTo(5);
		assertThat(decoder.remaining()).isZero();
	}

	@EachBuffer
	void resetContinuesFromAnotherBuffer(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "00000001");
		decoder.readInt();
		assertThat(decoder.reset(kind.wrap(hex("00000002")))).isSameAs(decoder);
		assertThat(decoder.readInt()).isEqualTo(2);
	}

	@Test
	void bigEndianIsImposedWhateverTheBufferOrder() {
		ByteBuffer buffer = ByteBuffer.wrap(hex("00000001")).order(ByteOrder.LITTLE_ENDIAN);
		assertThat(new XdrDecoder(buffer).readInt()).isEqualTo(1);
	}

	@Test
	void hexHelperStripsCommentsAndWhitespace() {
		assertThat(units(hex("""
				00 0000 01 /* one */ ff
				/* a comment
				   over lines */ 0a
				"""))).isEqualTo("00000001 ff0a");
	}

	static XdrDecoder decoder(BufferKind kind, String annotatedHex) {
		return new XdrDecoder(kind.wrap(hex(annotatedHex)));
	}

}
