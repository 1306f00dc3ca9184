package io.rpcrdma.service.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrException;

/**
 * Whatever bytes a peer sends, decoding any supported type either yields a value or throws
 * an {@link XdrException}: never a NullPointerException, ClassCastException,
 * OutOfMemoryError or StackOverflowError.
 */
class HostileInputPropertiesTest {

	private static final CodecRegistry REGISTRY = CodecRegistry.builder()
		.limits(CodecLimits.DEFAULTS.withMaxCollectionSize(10_000).withMaxDepth(64))
		.build();

	private static final List<Type> TYPES = List.of(Model.Person.class, Model.Tree.class, Model.Node.class, Model.Measurement.class,
			Model.Tag.class, Model.Boxes.class, Model.Primitives.class, Model.Status.class, Model.Positive.class,
			new TypeCapture<Map<String, List<Model.Color>>>() { }.type(), new TypeCapture<Model.Box<Model.Point>>() { }.type());

	@Property(tries = 2000)
	void anyBytesDecodeOrFailWithAnXdrException(@ForAll("wire") byte[] wire, @ForAll("types") Type type) {
		XdrCodec<?> codec = REGISTRY.codecFor(type);
		try {
			codec.decode(new XdrDecoder(ByteBuffer.wrap(wire)));
		}
		catch (XdrException expected) {
			assertThat(expected.getMessage()).isNotBlank();
		}
	}

	/** Mostly small words (counts of 0, 1, 2 and booleans), so decoding gets deep before the data ends. */
	@Provide
	Arbitrary<byte[]> wire() {
		Arbitrary<Integer> word = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 2)),
				net.jqwik.api.Tuple.of(1, Arbitraries.integers()));
		return word.list().ofMaxSize(400).map((words) -> {
			ByteBuffer buffer = ByteBuffer.allocate(words.size() * 4);
			words.forEach(buffer::putInt);
			return buffer.array();
		});
	}

	@Provide
	Arbitrary<Type> types() {
		return Arbitraries.of(TYPES);
	}

}
