package io.rpcrdma.service.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * Fuzzes the codecs that turn a call's arguments and a reply's results into Java values
 * (records, classes, enums, collections, maps, optionals, arrays, recursive types), with the
 * registry's default limits and with tight ones. Contract: a value or an {@link XdrException};
 * never a NullPointerException, ClassCastException, IllegalArgumentException from a
 * constructor, StackOverflowError or an allocation sized by a count; a value encodes in the
 * size its codec states, to bytes that decode to a value encoding to the same bytes.
 * <p>
 * Input: a settings byte (low 4 bits the type, bit 4 the tight limits of 10 000 elements and
 * depth 64, bit 5 a direct buffer), then the XDR.
 */
class XdrCodecFuzzTest {

	private static final CodecRegistry[] REGISTRIES = { CodecRegistry.standard(), CodecRegistry.builder()
		.limits(CodecLimits.DEFAULTS.withMaxCollectionSize(10_000).withMaxDepth(64))
		.build() };

	private static final List<Type> TYPES = List.of(Model.Person.class, Model.Tree.class, Model.Node.class,
			Model.Measurement.class, Model.Tag.class, Model.Boxes.class, Model.Primitives.class, Model.Status.class,
			Model.Positive.class, new TypeCapture<Map<String, List<Model.Color>>>() { }.type(),
			new TypeCapture<Model.Box<Model.Point>>() { }.type(), new TypeCapture<Set<Optional<String>>>() { }.type(),
			String[][].class, char[].class, ByteBuffer.class, new TypeCapture<List<Map<Integer, byte[]>>>() { }.type());

	@FuzzTest(maxDuration = "30s")
	void decodeXdrValue(byte[] input) {
		DecodeBudget.check(input.length, () -> decode(input));
	}

	private static void decode(byte[] input) {
		if (input.length == 0) {
			return;
		}
		int settings = input[0];
		@SuppressWarnings("unchecked")
		XdrCodec<Object> codec = (XdrCodec<Object>) REGISTRIES[(settings >> 4) & 1].codecFor(TYPES.get(settings & 0x0F));
		ByteBuffer wire = ByteBuffer.wrap(input, 1, input.length - 1).slice();
		if ((settings & 0x20) != 0) {
			wire = ByteBuffer.allocateDirect(wire.remaining()).put(wire).flip();
		}
		Object value;
		try {
			value = codec.decode(new XdrDecoder(wire));
		}
		catch (XdrException expected) {
			assertThat(expected.getMessage()).isNotBlank();
			return;
		}
		byte[] encoded = encode(codec, value);
		Object again = codec.decode(new XdrDecoder(ByteBuffer.wrap(encoded)));
		assertThat(encode(codec, again)).isEqualTo(encoded);
	}

	private static byte[] encode(XdrCodec<Object> codec, Object value) {
		ByteBuffer buffer = ByteBuffer.allocate(codec.encodedSize(value));
		codec.encode(value, new XdrEncoder(buffer));
		assertThat(buffer.remaining()).as("encodedSize of %s", value).isZero();
		return buffer.array();
	}

}
