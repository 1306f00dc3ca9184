package io.rpcrdma.service.codec;

import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.rpcrdma.service.codec.Model.Color;
import io.rpcrdma.service.codec.Model.Measurement;
import io.rpcrdma.service.codec.Model.Node;
import io.rpcrdma.service.codec.Model.Point;
import io.rpcrdma.service.codec.Model.Status;
import io.rpcrdma.service.codec.Model.Tag;
import io.rpcrdma.xdr.Hex;

/**
 * Byte-exact encodings of Java values, written field by field as RFC 4506 lays them out.
 */
class CodecVectorsTest {

	private final CodecRegistry registry = CodecRegistry.standard();

	@Test
	void primitivesUseTheirXdrScalars() {
		assertVector(boolean.class, true, "00000001 // bool TRUE (§4.4)");
		assertVector(byte.class, (byte) -2, "fffffffe // byte widened to int (§4.1)");
		assertVector(short.class, (short) 0x1234, "00001234 // short widened to int");
		assertVector(char.class, 'é', "000000e9 // char as int in [0, 65535]");
		assertVector(int.class, 42, "0000002a // int");
		assertVector(long.class, -2L, "ffffffff fffffffe // hyper (§4.5)");
		assertVector(float.class, 1.0f, "3f800000 // IEEE single (§4.6)");
		assertVector(double.class, -2.5, "c0040000 00000000 // IEEE double (§4.7)");
	}

	@Test
	void boxesAreOptionalData() {
		assertVector(Integer.class, null, "00000000 // absent (§4.19)");
		assertVector(Integer.class, 7, "00000001 // present \n 00000007 // int 7");
		assertVector(Long.class, 1L, "00000001 // present \n 00000000 00000001 // hyper 1");
	}

	@Test
	void stringsAreUtf8WithLengthAndPadding() {
		assertVector(String.class, "", "00000000 // length 0");
		assertVector(String.class, "hé", "00000003 // 3 UTF-8 bytes \n 68 c3a9 00 // 'h', 'é', one byte of padding");
		assertVector(String.class, "\uD83D\uDE00", "00000004 // one supplementary character is 4 UTF-8 bytes \n f09f9880");
	}

	@Test
	void byteArraysAndBuffersAreOpaque() {
		assertVector(byte[].class, new byte[] { 1, 2, 3, 4, 5 }, "00000005 // length \n 01020304 05 000000 // data, 3 bytes padding");
		byte[] wire = Coding.encode(this.registry.codecFor(ByteBuffer.class), ByteBuffer.wrap(new byte[] { 9, 8 }));
		assertThat(Hex.units(wire)).isEqualTo(Hex.units(hex("00000002 09080000")));
	}

	@Test
	void decodedByteBufferIsAZeroCopySliceOfTheInput() {
		byte[] wire = hex("00000003 0a0b0c00");
		ByteBuffer input = ByteBuffer.wrap(wire);
		ByteBuffer decoded = this.registry.codecFor(ByteBuffer.class).decode(new io.rpcrdma.xdr.XdrDecoder(input));
		assertThat(decoded.remaining()).isEqualTo(3);
		wire[4] = 0x7f;
		assertThat(decoded.get(0)).as("shares the input's memory").isEqualTo((byte) 0x7f);
	}

	@Test
	void enumsUseDeclarationOrderOrTheirXdrValues() {
		assertVector(Color.class, Color.BLUE, "00000002 // third constant in declaration order");
		assertVector(Status.class, Status.ACCES, "0000000d // @XdrValue(13)");
		assertVector(Status.class, Status.UNKNOWN, "ffffffff // @XdrValue(-1)");
	}

	@Test
	void recordsAreStructsOfTheirComponentsInOrder() {
		assertVector(Point.class, new Point(1, 2, true), """
				00000001          // x
				00000000 00000002 // y, hyper
				00000001          // visible
				""");
	}

	@Test
	void classesUseTheirDeclaredFieldOrder() {
		assertVector(Tag.class, new Tag(3, "a"), "00000003 // id \n 00000001 61000000 // label");
		assertVector(Measurement.class, new Measurement(1.0, "m", null), """
				00000001 6d000000 // unit, @XdrField(order = 1)
				3ff00000 00000000 // value, order 2
				00000000          // previous absent, order 3
				""");
	}

	@Test
	void collectionsAreCountedArrays() {
		Type listOfStrings = new TypeCapture<List<String>>() { }.type();
		assertVector(listOfStrings, List.of("a", "bc"), """
				00000002          // count
				00000001 61000000 // "a"
				00000002 62630000 // "bc"
				""");
		assertVector(int[].class, new int[] { 1, -1 }, "00000002 00000001 ffffffff");
		Map<String, Integer> map = new LinkedHashMap<>();
		map.put("k", 7);
		map.put("z", null);
		assertVector(new TypeCapture<Map<String, Integer>>() { }.type(), map, """
				00000002                   // two entries
				00000001 6b000000 00000001 00000007 // "k" -> present 7
				00000001 7a000000 00000000          // "z" -> absent
				""");
	}

	@Test
	void optionalIsOptionalData() {
		Type type = new TypeCapture<Optional<String>>() { }.type();
		assertVector(type, Optional.empty(), "00000000");
		assertVector(type, Optional.of("x"), "00000001 00000001 78000000");
	}

	@Test
	void recursiveRecordsAreOptionalDataChains() {
		assertVector(Node.class, new Node(1, new Node(2, null)), """
				00000001 // value 1
				00000001 // next present
				00000002 //   value 2
				00000000 //   next absent
				""");
	}

	private void assertVector(Type type, Object value, String annotatedHex) {
		@SuppressWarnings("unchecked")
		XdrCodec<Object> codec = (XdrCodec<Object>) this.registry.codecFor(type);
		byte[] expected = hex(annotatedHex);
		assertThat(Hex.units(Coding.encode(codec, value))).as("encoding of %s", value).isEqualTo(Hex.units(expected));
		Object decoded = Coding.decode(codec, expected);
		if (value == null) {
			assertThat(decoded).isNull();
		}
		else {
			assertThat(decoded).usingRecursiveComparison().isEqualTo(value);
		}
	}

}
