package io.rpcrdma.xdr;

import static io.rpcrdma.xdr.Hex.hex;
import static io.rpcrdma.xdr.Hex.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/**
 * Byte-exact encoding of every XDR type of RFC 4506 §4, over heap, offset-heap and direct
 * buffers. Each vector is written field by field with what RFC 4506 says about it.
 */
class XdrEncoderTest {

	@EachWritableBuffer
	void intIsFourBytesBigEndianTwosComplement(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeInt(0).writeInt(1).writeInt(-1).writeInt(Integer.MAX_VALUE)
			.writeInt(Integer.MIN_VALUE).writeInt(0x01020304), """
				00000000 /* 0 */
				00000001 /* 1 */
				ffffffff /* -1, two's complement (RFC 4506 §4.1) */
				7fffffff /* 2^31 - 1 */
				80000000 /* -2^31 */
				01020304 /* most significant byte first */
				""");
	}

	@EachWritableBuffer
	void unsignedIntIsFourBytesBigEndian(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeUnsignedInt(0).writeUnsignedInt(2147483648L).writeUnsignedInt(4294967295L),
				"""
						00000000 /* 0 */
						80000000 /* 2^31 */
						ffffffff /* 2^32 - 1 (RFC 4506 §4.2) */
						""");
	}

	@EachWritableBuffer
	void enumIsItsIntValue(BufferKind kind) {
		// RFC 4506 §4.3: enum { RED = 2, YELLOW = 3, BLUE = 5 } colors;
		assertEncodes(kind, (e) -> e.writeInt(2).writeInt(3).writeInt(5), """
				00000002 /* RED */
				00000003 /* YELLOW */
				00000005 /* BLUE */
				""");
	}

	@EachWritableBuffer
	void booleanIsEnumFalseZeroTrueOne(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeBoolean(false).writeBoolean(true), """
				00000000 /* FALSE (RFC 4506 §4.4) */
				00000001 /* TRUE */
				""");
	}

	@EachWritableBuffer
	void hyperIsEightBytesBigEndian(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeHyper(0x0102030405060708L).writeHyper(-1L).writeHyper(Long.MIN_VALUE)
			.writeHyper(Long.parseUnsignedLong("18446744073709551615")), """
				01020304 05060708 /* hyper, most significant byte first (RFC 4506 §4.5) */
				ffffffff ffffffff /* hyper -1 */
				80000000 00000000 /* hyper -2^63 */
				ffffffff ffffffff /* unsigned hyper 2^64 - 1: the same bits */
				""");
	}

	@EachWritableBuffer
	void floatIsIeeeSinglePrecision(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeFloat(1.0f).writeFloat(-2.5f).writeFloat(-0.0f)
			.writeFloat(Float.POSITIVE_INFINITY).writeFloat(Float.MIN_VALUE).writeFloat(Float.intBitsToFloat(0x7fc00001)),
				"""
						3f800000 /* 1.0: sign 0, exponent 127, fraction 0 (RFC 4506 §4.6) */
						c0200000 /* -2.5 */
						80000000 /* -0.0 keeps its sign */
						7f800000 /* +infinity */
						00000001 /* smallest subnormal */
						7fc00001 /* a NaN keeps its payload bits */
						""");
	}

	@EachWritableBuffer
	void doubleIsIeeeDoublePrecision(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeDouble(1.0).writeDouble(-2.5).writeDouble(Double.NEGATIVE_INFINITY)
			.writeDouble(Double.MIN_VALUE).writeDouble(Double.longBitsToDouble(0x7ff8000000000001L)), """
				3ff00000 00000000 /* 1.0 (RFC 4506 §4.7) */
				c0040000 00000000 /* -2.5 */
				fff00000 00000000 /* -infinity */
				00000000 00000001 /* smallest subnormal */
				7ff80000 00000001 /* a NaN keeps its payload bits */
				""");
	}

	@EachWritableBuffer
	void fixedOpaqueIsTheBytesThenZeroPaddingToFour(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeFixedOpaque(new byte[0])
			.writeFixedOpaque(new byte[] { 1, 2, 3 })
			.writeFixedOpaque(new byte[] { 1, 2, 3, 4 })
			.writeFixedOpaque(new byte[] { 1, 2, 3, 4, 5 })
			.writeFixedOpaque(new byte[] { 1, 2 }, 1, 1)
			.writeFixedOpaque(kind.wrap(new byte[] { 6, 7 })), """
				/* opaque[0]: nothing at all (RFC 4506 §4.9) */
				010203 00         /* opaque[3]: 1 byte of padding */
				01020304          /* opaque[4]: none */
				01020304 05 000000 /* opaque[5]: 3 bytes of padding */
				02 000000         /* opaque[1] from part of an array */
				0607 0000         /* opaque[2] from a buffer */
				""");
	}

	@EachWritableBuffer
	void fixedOpaqueFromABufferLeavesTheSourcePositionAlone(BufferKind kind) {
		ByteBuffer source = kind.wrap(new byte[] { 9, 8, 7 });
		source.position(1);
		XdrEncoder encoder = new XdrEncoder(kind.allocate(8));
		encoder.writeFixedOpaque(source);
		assertThat(source.position()).isEqualTo(1);
		assertThat(units(encoder.buffer().flip())).isEqualTo("08070000");
	}

	@EachWritableBuffer
	void variableOpaqueIsLengthThenBytesThenPadding(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeOpaque(new byte[0])
			.writeOpaque(new byte[] { (byte) 0xab })
			.writeOpaque(new byte[] { 1, 2, 3, 4 })
			.writeOpaque(kind.wrap(new byte[] { 5, 6, 7, 8, 9 })), """
				00000000            /* length 0, no data (RFC 4506 §4.10) */
				00000001 ab000000   /* length 1, 1 byte, 3 bytes of padding */
				00000004 01020304   /* length 4, no padding */
				00000005 05060708 09000000 /* length 5 from a buffer */
				""");
	}

	@EachWritableBuffer
	void stringIsLengthThenUtf8BytesThenPadding(BufferKind kind) {
		assertEncodes(kind, (e) -> e.writeString("")
			.writeString("sillyprog")
			.writeString("\u00e9")
			.writeString("\u20ac")
			.writeString("\ud83d\ude00")
			.writeString("a\u20ac"), """
				00000000                            /* "" (RFC 4506 §4.11) */
				00000009 73696c6c 7970726f 67000000 /* "sillyprog", 3 bytes of padding */
				00000002 c3a90000                   /* "é", 2 bytes of UTF-8 */
				00000003 e282ac00                   /* "€", 3 bytes */
				00000004 f09f9880                   /* U+1F600, a surrogate pair, 4 bytes */
				00000004 61e282ac                   /* "a€", the length counts bytes, not chars */
				""");
	}

	@EachWritableBuffer
	void fixedArrayIsItsElementsWithoutACount(BufferKind kind) {
		// RFC 4506 §4.12: int[3], then string[2] whose elements differ in size.
		assertEncodes(kind, (e) -> e.writeInt(1).writeInt(2).writeInt(3).writeString("a").writeString("bcdef"), """
				00000001 00000002 00000003     /* int[3] {1, 2, 3}, no count */
				00000001 61000000              /* string[2] element 0: "a" */
				00000005 62636465 66000000     /* element 1: "bcdef" */
				""");
	}

	@EachWritableBuffer
	void variableArrayIsCountThenElements(BufferKind kind) {
		assertEncodes(kind, (e) -> {
			e.writeInt(0);
			int at = e.reserveInt();
			e.writeInt(7).writeInt(8);
			e.patchInt(at, 2);
		}, """
				00000000                   /* int<> {}: count 0 (RFC 4506 §4.13) */
				00000002 00000007 00000008 /* int<> {7, 8}: count patched in after the elements */
				""");
	}

	@EachWritableBuffer
	void structIsItsComponentsInDeclarationOrder(BufferKind kind) {
		// RFC 4506 §4.14: struct { int a; hyper b; bool c; opaque d<>; }
		assertEncodes(kind, (e) -> e.writeInt(-2).writeHyper(3).writeBoolean(true).writeOpaque(new byte[] { 4 }), """
				fffffffe          /* a = -2 */
				00000000 00000003 /* b = 3 */
				00000001          /* c = TRUE */
				00000001 04000000 /* d = {4} */
				""");
	}

	@EachWritableBuffer
	void unionIsDiscriminantThenTheSelectedArmAndVoidTakesNoBytes(BufferKind kind) {
		// RFC 4506 §4.15/§4.16: union switch (int kind) { case 0: void; case 1: int value; }
		assertEncodes(kind, (e) -> e.writeInt(0).writeInt(1).writeInt(42), """
				00000000          /* discriminant 0, arm void: nothing follows */
				00000001 0000002a /* discriminant 1, arm int 42 */
				""");
	}

	@EachWritableBuffer
	void optionalDataIsABooleanThenTheValue(BufferKind kind) {
		// RFC 4506 §4.19: struct *stringlist { string item<>; stringlist next; }, "a" -> "b"
		assertEncodes(kind,
				(e) -> e.writeBoolean(true).writeString("a").writeBoolean(true).writeString("b").writeBoolean(false),
				"""
						00000001 /* TRUE: an element follows */
						00000001 61000000 /* item "a" */
						00000001 /* TRUE */
						00000001 62000000 /* item "b" */
						00000000 /* FALSE: end of list */
						""");
	}

	@EachWritableBuffer
	void rfc4506Section7FileExample(BufferKind kind) {
		// The example of RFC 4506 §7, byte for byte: the file "sillyprog", of type EXEC with
		// interpretor "lisp", owned by "john", containing "(quit)".
		assertEncodes(kind, (e) -> e.writeString("sillyprog")
			.writeInt(2)
			.writeString("lisp")
			.writeString("john")
			.writeOpaque("(quit)".getBytes(StandardCharsets.US_ASCII)), RFC4506_FILE_EXAMPLE);
	}

	/** RFC 4506 §7, the offsets and comments as the RFC gives them. */
	static final String RFC4506_FILE_EXAMPLE = """
			/*  0 */ 00000009 /* length of filename = 9 */
			/*  4 */ 73696c6c /* filename characters */
			/*  8 */ 7970726f /* ... and more characters ... */
			/* 12 */ 67000000 /* ... and 3 zero-bytes of fill */
			/* 16 */ 00000002 /* filekind is EXEC = 2 */
			/* 20 */ 00000004 /* length of interpretor = 4 */
			/* 24 */ 6c697370 /* interpretor characters */
			/* 28 */ 00000004 /* length of owner = 4 */
			/* 32 */ 6a6f686e /* owner characters */
			/* 36 */ 00000006 /* length of file data = 6 */
			/* 40 */ 28717569 /* file data bytes ... */
			/* 44 */ 74290000 /* ... and 2 zero-bytes of fill */
			""";

	@Test
	void bigEndianIsImposedWhateverTheBufferOrder() {
		ByteBuffer buffer = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
		new XdrEncoder(buffer).writeInt(1);
		assertThat(units(buffer.flip())).isEqualTo("00000001");
	}

	@EachWritableBuffer
	void resetContinuesIntoAnotherBufferFromItsPosition(BufferKind kind) {
		XdrEncoder encoder = new XdrEncoder(kind.allocate(4));
		encoder.writeInt(1);
		ByteBuffer second = kind.allocate(8);
		second.position(4);
		assertThat(encoder.reset(second)).isSameAs(encoder);
		encoder.writeInt(2);
		assertThat(encoder.position()).isEqualTo(8);
		assertThat(units(second.flip())).isEqualTo("00000000 00000002");
	}

	@EachWritableBuffer
	void overflowWritesNoPartOfTheItem(BufferKind kind) {
		for (OverflowCase item : OVERFLOW_CASES) {
			for (int room = 0; room < item.size(); room++) {
				ByteBuffer buffer = kind.allocate(room);
				fill(buffer, (byte) 0xee);
				XdrEncoder encoder = new XdrEncoder(buffer);
				assertThatExceptionOfType(XdrOverflowException.class).as("%s into %d bytes", item.name(), room)
					.isThrownBy(() -> item.write().accept(encoder))
					.withMessageContaining("needed " + item.size());
				assertThat(encoder.position()).as("%s position", item.name()).isZero();
				byte[] untouched = new byte[room];
				Arrays.fill(untouched, (byte) 0xee);
				assertThat(Hex.bytes(buffer.clear())).as("%s bytes", item.name()).isEqualTo(untouched);
			}
			XdrEncoder exact = new XdrEncoder(kind.allocate(item.size()));
			item.write().accept(exact);
			assertThat(exact.remaining()).as("%s fills exactly %d bytes", item.name(), item.size()).isZero();
		}
	}

	private static final List<OverflowCase> OVERFLOW_CASES = List.of(
			new OverflowCase("int", 4, (e) -> e.writeInt(1)),
			new OverflowCase("unsigned int", 4, (e) -> e.writeUnsignedInt(1)),
			new OverflowCase("boolean", 4, (e) -> e.writeBoolean(true)),
			new OverflowCase("float", 4, (e) -> e.writeFloat(1)),
			new OverflowCase("hyper", 8, (e) -> e.writeHyper(1)),
			new OverflowCase("double", 8, (e) -> e.writeDouble(1)),
			new OverflowCase("fixed opaque[5]", 8, (e) -> e.writeFixedOpaque(new byte[5])),
			new OverflowCase("fixed opaque[5] from a buffer", 8, (e) -> e.writeFixedOpaque(ByteBuffer.allocate(5))),
			new OverflowCase("opaque<> of 5", 12, (e) -> e.writeOpaque(new byte[5])),
			new OverflowCase("opaque<> of 5 from a buffer", 12, (e) -> e.writeOpaque(ByteBuffer.allocate(5))),
			new OverflowCase("ASCII string", 12, (e) -> e.writeString("hello")),
			new OverflowCase("UTF-8 string", 12, (e) -> e.writeString("h\u00e9llo")));

	@EachWritableBuffer
	void unsignedIntOutsideItsRangeIsRejectedWithoutWriting(BufferKind kind) {
		XdrEncoder encoder = new XdrEncoder(kind.allocate(4));
		assertThatExceptionOfType(XdrInvalidValueException.class).isThrownBy(() -> encoder.writeUnsignedInt(-1));
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> encoder.writeUnsignedInt(4294967296L))
			.withMessageContaining("4294967296");
		assertThat(encoder.position()).isZero();
	}

	@EachWritableBuffer
	void stringWithAnUnpairedSurrogateIsRejectedNotReplaced(BufferKind kind) {
		XdrEncoder encoder = new XdrEncoder(kind.allocate(64));
		assertThatExceptionOfType(XdrInvalidValueException.class).isThrownBy(() -> encoder.writeString("\ud800"));
		assertThatExceptionOfType(XdrInvalidValueException.class).isThrownBy(() -> encoder.writeString("a\udc00b"))
			.withMessageContaining("UTF-8");
		assertThat(encoder.position()).isZero();
	}

	@EachWritableBuffer
	void fixedOpaqueOutsideItsArrayIsRejectedWithoutWriting(BufferKind kind) {
		XdrEncoder encoder = new XdrEncoder(kind.allocate(64));
		assertThatExceptionOfType(IndexOutOfBoundsException.class)
			.isThrownBy(() -> encoder.writeFixedOpaque(new byte[4], 2, 3));
		assertThatExceptionOfType(IndexOutOfBoundsException.class)
			.isThrownBy(() -> encoder.writeFixedOpaque(new byte[4], 0, -1));
		assertThat(encoder.position()).isZero();
	}

	private static void assertEncodes(BufferKind kind, Consumer<XdrEncoder> write, String expected) {
		byte[] bytes = hex(expected);
		// Room to spare, so an item that writes too much shows as a difference, not overflow.
		ByteBuffer buffer = kind.allocate(bytes.length + 16);
		XdrEncoder encoder = new XdrEncoder(buffer);
		write.accept(encoder);
		assertThat(encoder.position()).as("bytes written").isEqualTo(bytes.length);
		assertThat(units(buffer.flip())).isEqualTo(units(bytes));
	}

	private static void fill(ByteBuffer buffer, byte value) {
		for (int i = 0; i < buffer.capacity(); i++) {
			buffer.put(i, value);
		}
	}

	record OverflowCase(String name, int size, Consumer<XdrEncoder> write) {
	}

}
