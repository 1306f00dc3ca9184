package io.rpcrdma.service.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import io.rpcrdma.service.codec.Model.Address;
import io.rpcrdma.service.codec.Model.Box;
import io.rpcrdma.service.codec.Model.Boxes;
import io.rpcrdma.service.codec.Model.Color;
import io.rpcrdma.service.codec.Model.Measurement;
import io.rpcrdma.service.codec.Model.Node;
import io.rpcrdma.service.codec.Model.Person;
import io.rpcrdma.service.codec.Model.Primitives;
import io.rpcrdma.service.codec.Model.Status;
import io.rpcrdma.service.codec.Model.Tag;
import io.rpcrdma.service.codec.Model.Tree;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * Every supported Java type survives encoding and decoding unchanged, takes exactly the size
 * its codec states, decodes the same from heap and direct buffers, and any strict prefix of
 * its encoding is reported as truncated.
 */
class CodecRoundTripPropertiesTest {

	private static final CodecRegistry REGISTRY = CodecRegistry.standard();

	@Property
	void primitivesRoundTrip(@ForAll("primitives") Primitives value) {
		assertRoundTrip(Primitives.class, value);
		assertRoundTrip(boolean.class, value.z());
		assertRoundTrip(byte.class, value.b());
		assertRoundTrip(short.class, value.s());
		assertRoundTrip(char.class, value.c());
		assertRoundTrip(int.class, value.i());
		assertRoundTrip(long.class, value.j());
		assertRoundTrip(float.class, value.f());
		assertRoundTrip(double.class, value.d());
	}

	@Property
	void boxesRoundTripIncludingNull(@ForAll("boxes") Boxes value) {
		assertRoundTrip(Boxes.class, value);
		assertRoundTrip(Integer.class, value.i());
		assertRoundTrip(Double.class, value.d());
	}

	@Property
	void stringsRoundTripAndCountUtf8Bytes(@ForAll("text") String value) {
		byte[] wire = assertRoundTrip(String.class, value);
		assertThat(ByteBuffer.wrap(wire).getInt()).isEqualTo(value.getBytes(StandardCharsets.UTF_8).length);
	}

	@Property
	void opaqueDataRoundTrips(@ForAll byte[] value) {
		assertRoundTrip(byte[].class, value);
		XdrCodec<ByteBuffer> buffers = REGISTRY.codecFor(ByteBuffer.class);
		ByteBuffer decoded = Coding.decode(buffers, Coding.encode(buffers, ByteBuffer.wrap(value)));
		assertThat(io.rpcrdma.xdr.Hex.bytes(decoded)).isEqualTo(value);
		XdrCodec<io.rpcrdma.service.BulkData> bulk = REGISTRY.codecFor(io.rpcrdma.service.BulkData.class);
		byte[] wire = Coding.encode(bulk, io.rpcrdma.service.BulkData.wrap(value));
		assertThat(wire).isEqualTo(Coding.encode(REGISTRY.codecFor(byte[].class), value));
		assertThat(Coding.decode(bulk, wire).toByteArray()).isEqualTo(value);
	}

	@Property(tries = 200)
	void collectionsRoundTrip(@ForAll List<@IntRange(min = -5, max = 5) Integer> ints, @ForAll("textMap") Map<String, Long> map,
			@ForAll Set<Color> colors, @ForAll int[] intArray, @ForAll double[] doubles, @ForAll boolean[] booleans,
			@ForAll short[] shorts, @ForAll char[] chars) {
		assertRoundTrip(new TypeCapture<List<Integer>>() { }.type(), ints);
		assertRoundTrip(new TypeCapture<Map<String, Long>>() { }.type(), map);
		assertRoundTrip(new TypeCapture<Set<Color>>() { }.type(), colors);
		assertRoundTrip(int[].class, intArray);
		assertRoundTrip(double[].class, doubles);
		assertRoundTrip(boolean[].class, booleans);
		assertRoundTrip(short[].class, shorts);
		assertRoundTrip(char[].class, chars);
	}

	@Property
	void optionalsAndEnumsRoundTrip(@ForAll("optionalText") Optional<String> text, @ForAll Color color, @ForAll Status status) {
		assertRoundTrip(new TypeCapture<Optional<String>>() { }.type(), text);
		assertRoundTrip(Color.class, color);
		assertRoundTrip(Status.class, status);
	}

	@Property(tries = 200)
	void nestedRecordsRoundTrip(@ForAll("people") Person person) {
		assertRoundTrip(Person.class, person);
		assertRoundTrip(new TypeCapture<List<Person>>() { }.type(), List.of(person, person));
	}

	@Property
	void genericRecordsRoundTrip(@ForAll("text") String content, @ForAll List<@IntRange(min = 0, max = 9) Integer> more) {
		List<String> strings = more.stream().map(String::valueOf).toList();
		assertRoundTrip(new TypeCapture<Box<String>>() { }.type(), new Box<>(content, strings));
		assertRoundTrip(new TypeCapture<Box<Integer>>() { }.type(), new Box<>(more.isEmpty() ? null : more.get(0), more));
	}

	@Property(tries = 200)
	void plainClassesRoundTrip(@ForAll int id, @ForAll("text") String label, @ForAll double value) {
		assertRoundTrip(Tag.class, new Tag(id, label));
		assertRoundTrip(Measurement.class, new Measurement(value, label, new Measurement(-value, "s", null)));
	}

	@Property(tries = 200)
	void recursiveStructuresRoundTrip(@ForAll("lists") Node list, @ForAll("trees") Tree tree) {
		assertRoundTrip(Node.class, list);
		assertRoundTrip(Tree.class, tree);
	}

	@Property(tries = 200)
	void anyStrictPrefixIsTruncated(@ForAll("people") Person person, @ForAll @IntRange(min = 0, max = 10_000) int cut) {
		XdrCodec<Person> codec = REGISTRY.codecFor(Person.class);
		byte[] wire = Coding.encode(codec, person);
		ByteBuffer prefix = ByteBuffer.wrap(Arrays.copyOf(wire, cut % wire.length));
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> codec.decode(new XdrDecoder(prefix)));
	}

	@SuppressWarnings("unchecked")
	private static <T> byte[] assertRoundTrip(Type type, T value) {
		XdrCodec<T> codec = (XdrCodec<T>) REGISTRY.codecFor(type);
		byte[] wire = Coding.encode(codec, value);
		assertThat(wire.length % 4).isZero();
		T heap = Coding.decode(codec, wire);
		T direct = Coding.decodeDirect(codec, wire);
		if (value == null) {
			assertThat(heap).isNull();
			assertThat(direct).isNull();
		}
		else {
			assertThat(heap).usingRecursiveComparison().isEqualTo(value);
			assertThat(direct).usingRecursiveComparison().isEqualTo(value);
		}
		return wire;
	}

	@Provide
	Arbitrary<Primitives> primitives() {
		return Builders.withBuilder(() -> new Object[8])
			.use(Arbitraries.of(true, false)).in((a, v) -> set(a, 0, v))
			.use(Arbitraries.bytes()).in((a, v) -> set(a, 1, v))
			.use(Arbitraries.shorts()).in((a, v) -> set(a, 2, v))
			.use(Arbitraries.chars()).in((a, v) -> set(a, 3, v))
			.use(Arbitraries.integers()).in((a, v) -> set(a, 4, v))
			.use(Arbitraries.longs()).in((a, v) -> set(a, 5, v))
			.use(Arbitraries.floats()).in((a, v) -> set(a, 6, v))
			.use(Arbitraries.doubles()).in((a, v) -> set(a, 7, v))
			.build((a) -> new Primitives((Boolean) a[0], (Byte) a[1], (Short) a[2], (Character) a[3], (Integer) a[4], (Long) a[5],
					(Float) a[6], (Double) a[7]));
	}

	@Provide
	Arbitrary<Boxes> boxes() {
		return Builders.withBuilder(() -> new Object[8])
			.use(Arbitraries.of(true, false).injectNull(0.3)).in((a, v) -> set(a, 0, v))
			.use(Arbitraries.bytes().injectNull(0.3)).in((a, v) -> set(a, 1, v))
			.use(Arbitraries.shorts().injectNull(0.3)).in((a, v) -> set(a, 2, v))
			.use(Arbitraries.chars().injectNull(0.3)).in((a, v) -> set(a, 3, v))
			.use(Arbitraries.integers().injectNull(0.3)).in((a, v) -> set(a, 4, v))
			.use(Arbitraries.longs().injectNull(0.3)).in((a, v) -> set(a, 5, v))
			.use(Arbitraries.floats().injectNull(0.3)).in((a, v) -> set(a, 6, v))
			.use(Arbitraries.doubles().injectNull(0.3)).in((a, v) -> set(a, 7, v))
			.build((a) -> new Boxes((Boolean) a[0], (Byte) a[1], (Short) a[2], (Character) a[3], (Integer) a[4], (Long) a[5],
					(Float) a[6], (Double) a[7]));
	}

	private static Object[] set(Object[] array, int index, Object value) {
		array[index] = value;
		return array;
	}

	/** Any Unicode text, non-ASCII and supplementary characters included, but no unpaired surrogates. */
	@Provide
	Arbitrary<String> text() {
		Arbitrary<Integer> codePoints = Arbitraries.frequencyOf(
				net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0x20, 0x7E)),
				net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 0xD7FF)),
				net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0xE000, 0x10FFFF)));
		return codePoints.list().ofMaxSize(12).map((list) -> new String(list.stream().mapToInt(Integer::intValue).toArray(), 0, list.size()));
	}

	@Provide
	Arbitrary<Optional<String>> optionalText() {
		return text().optional(0.6);
	}

	@Provide
	Arbitrary<Map<String, Long>> textMap() {
		return Arbitraries.maps(text(), Arbitraries.longs().injectNull(0.2)).ofMaxSize(5);
	}

	@Provide
	Arbitrary<Person> people() {
		Arbitrary<Address> addresses = Combinators.combine(text(), Arbitraries.integers(), text().optional(0.5)).as(Address::new);
		return Builders.withBuilder(() -> new Object[12])
			.use(text()).in((a, v) -> set(a, 0, v))
			.use(Arbitraries.integers()).in((a, v) -> set(a, 1, v))
			.use(Arbitraries.integers().injectNull(0.5)).in((a, v) -> set(a, 2, v))
			.use(addresses.list().ofMaxSize(3)).in((a, v) -> set(a, 3, v))
			.use(Arbitraries.maps(text(), Arbitraries.integers().injectNull(0.2)).ofMaxSize(3)).in((a, v) -> set(a, 4, v))
			.use(Arbitraries.of(Color.class).set()).in((a, v) -> set(a, 5, v))
			.use(addresses.optional(0.5)).in((a, v) -> set(a, 6, v))
			.use(Arbitraries.of(Status.class)).in((a, v) -> set(a, 7, v))
			.use(text().injectNull(0.5)).in((a, v) -> set(a, 8, v))
			.use(Arbitraries.bytes().array(byte[].class).ofMaxSize(9)).in((a, v) -> set(a, 9, v))
			.use(Arbitraries.longs().array(long[].class).ofMaxSize(3)).in((a, v) -> set(a, 10, v))
			.use(text().array(String[].class).ofMaxSize(3)).in((a, v) -> set(a, 11, v))
			.build(CodecRoundTripPropertiesTest::person);
	}

	@SuppressWarnings("unchecked")
	private static Person person(Object[] a) {
		return new Person((String) a[0], (Integer) a[1], (Integer) a[2], (List<Address>) a[3], (Map<String, Integer>) a[4],
				(Set<Color>) a[5], (Optional<Address>) a[6], (Status) a[7], (String) a[8], (byte[]) a[9], (long[]) a[10],
				(String[]) a[11]);
	}

	@Provide
	Arbitrary<Node> lists() {
		return Arbitraries.integers().list().ofMaxSize(40).map((values) -> {
			Node head = null;
			for (int i = values.size() - 1; i >= 0; i--) {
				head = new Node(values.get(i), head);
			}
			return (head != null) ? head : new Node(0, null);
		});
	}

	@Provide
	Arbitrary<Tree> trees() {
		return Arbitraries.lazyOf(() -> Arbitraries.strings().alpha().ofMaxLength(3).map((label) -> new Tree(label, List.of())),
				() -> Combinators.combine(Arbitraries.strings().alpha().ofMaxLength(3), trees().list().ofMaxSize(3)).as(Tree::new));
	}

}
