package io.rpcrdma.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Round-trip properties of the XDR codec: any sequence of items, encoded into any writable
 * buffer kind and decoded from any buffer kind, comes back equal, takes exactly the size RFC
 * 4506 gives it, and pads with zeros; any prefix of it is reported as truncated; and no input
 * at all makes the decoder throw anything but an {@link XdrException}.
 */
class XdrRoundTripPropertiesTest {

	@Property
	void itemsRoundTripWithTheirExactSize(@ForAll("items") List<Item> items, @ForAll("writable") BufferKind into,
			@ForAll BufferKind from) {
		int size = items.stream().mapToInt(Item::size).sum();
		XdrEncoder encoder = new XdrEncoder(into.allocate(size));
		for (Item item : items) {
			int before = encoder.position();
			item.write(encoder);
			assertThat(encoder.position() - before).as("size of %s", item).isEqualTo(item.size());
			assertThat(item.size() % 4).isZero();
		}
		assertThat(encoder.remaining()).isZero();
		byte[] wire = Hex.bytes(encoder.buffer().flip());

		XdrDecoder decoder = new XdrDecoder(from.wrap(wire));
		for (Item item : items) {
			assertThat(item.read(decoder)).isEqualTo(item);
		}
		assertThat(decoder.remaining()).isZero();
	}

	@Property
	void anyStrictPrefixIsReportedAsTruncated(@ForAll("items") @Size(min = 1) List<Item> items,
			@ForAll @IntRange(min = 0, max = 1000) int cut) {
		int size = items.stream().mapToInt(Item::size).sum();
		Assume.that(size > 0);
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(size));
		items.forEach((item) -> item.write(encoder));
		// Keep 0 to size - 1 bytes.
		ByteBuffer prefix = encoder.buffer().flip().limit(cut % size);
		XdrDecoder decoder = new XdrDecoder(prefix);
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> items.forEach((item) -> item.read(decoder)));
	}

	@Property
	void paddingIsZero(@ForAll @Size(max = 40) byte[] data) {
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(4 + (int) Xdr.pad(data.length)));
		encoder.writeOpaque(data);
		byte[] wire = Hex.bytes(encoder.buffer().flip());
		byte[] padding = Arrays.copyOfRange(wire, 4 + data.length, wire.length);
		assertThat(padding).isEqualTo(new byte[Xdr.padding(data.length)]);
	}

	@Property
	void stringLengthCountsUtf8Bytes(@ForAll("strings") String value) {
		byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(4 + (int) Xdr.pad(utf8.length)));
		encoder.writeString(value);
		ByteBuffer wire = encoder.buffer().flip();
		assertThat(wire.getInt(0)).isEqualTo(utf8.length);
		assertThat(new XdrDecoder(wire).readString(utf8.length)).isEqualTo(value);
	}

	@Property
	void arbitraryBytesFailOnlyWithXdrExceptions(@ForAll @Size(max = 64) byte[] input,
			@ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 9) Integer> reads, @ForAll BufferKind kind) {
		XdrDecoder decoder = new XdrDecoder(kind.wrap(input));
		try {
			for (int read : reads) {
				switch (read) {
					case 0 -> decoder.readInt();
					case 1 -> decoder.readHyper();
					case 2 -> decoder.readBoolean();
					case 3 -> decoder.readOpaque(32);
					case 4 -> decoder.readOpaqueBytes(Integer.MAX_VALUE);
					case 5 -> decoder.readString(48);
					case 6 -> decoder.readArrayCount("array", 1000, 4);
					case 7 -> decoder.readFixedOpaque(5);
					case 8 -> decoder.skip(decoder.readUnsignedInt());
					default -> decoder.readDouble();
				}
			}
		}
		catch (XdrException expected) {
			// the only acceptable failure
		}
		assertThat(decoder.position()).isBetween(0, input.length);
	}

	@Provide
	Arbitrary<BufferKind> writable() {
		return Arbitraries.of(BufferKind.HEAP, BufferKind.HEAP_OFFSET, BufferKind.DIRECT);
	}

	@Provide
	Arbitrary<List<Item>> items() {
		return item().list().ofMaxSize(12);
	}

	@Provide
	Arbitrary<String> strings() {
		Arbitrary<String> ascii = Arbitraries.strings().ascii().ofMaxLength(20);
		Arbitrary<String> unicode = Arbitraries.integers()
			.between(0, Character.MAX_CODE_POINT)
			.filter((cp) -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
			.list()
			.ofMaxSize(12)
			.map((cps) -> new String(cps.stream().mapToInt(Integer::intValue).toArray(), 0, cps.size()));
		return Arbitraries.oneOf(ascii, unicode);
	}

	private Arbitrary<Item> item() {
		Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(13);
		return Arbitraries.oneOf(Arbitraries.integers().map(IntItem::new),
				Arbitraries.longs().between(0, 0xFFFF_FFFFL).map(UnsignedIntItem::new),
				Arbitraries.of(true, false).map(BooleanItem::new), Arbitraries.longs().map(HyperItem::new),
				Arbitraries.integers().filter((bits) -> !isSignalingNaN(bits)).map(FloatItem::new),
				Arbitraries.longs().filter((bits) -> !isSignalingNaN(bits)).map(DoubleItem::new),
				bytes.map((b) -> new FixedOpaqueItem(ByteBuffer.wrap(b))),
				bytes.map((b) -> new OpaqueItem(ByteBuffer.wrap(b))), strings().map(StringItem::new),
				Arbitraries.integers().list().ofMaxSize(6).map(IntArrayItem::new),
				Combinators.combine(Arbitraries.of(true, false), Arbitraries.integers())
					.as((present, value) -> new OptionalIntItem(present ? value : null)));
	}

	/** A signalling NaN may be quieted by a float register, so its bits are not comparable. */
	private static boolean isSignalingNaN(int bits) {
		return (bits & 0x7f800000) == 0x7f800000 && (bits & 0x007fffff) != 0 && (bits & 0x00400000) == 0;
	}

	private static boolean isSignalingNaN(long bits) {
		return (bits & 0x7ff0000000000000L) == 0x7ff0000000000000L && (bits & 0x000fffffffffffffL) != 0
				&& (bits & 0x0008000000000000L) == 0;
	}

	/** One XDR item that can write itself, read an item of its own shape, and say its size. */
	sealed interface Item {

		void write(XdrEncoder encoder);

		Item read(XdrDecoder decoder);

		int size();

	}

	record IntItem(int value) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeInt(this.value);
		}

		public Item read(XdrDecoder decoder) {
			return new IntItem(decoder.readInt());
		}

		public int size() {
			return 4;
		}

	}

	record UnsignedIntItem(long value) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeUnsignedInt(this.value);
		}

		public Item read(XdrDecoder decoder) {
			return new UnsignedIntItem(decoder.readUnsignedInt());
		}

		public int size() {
			return 4;
		}

	}

	record BooleanItem(boolean value) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeBoolean(this.value);
		}

		public Item read(XdrDecoder decoder) {
			return new BooleanItem(decoder.readBoolean());
		}

		public int size() {
			return 4;
		}

	}

	record HyperItem(long value) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeHyper(this.value);
		}

		public Item read(XdrDecoder decoder) {
			return new HyperItem(decoder.readHyper());
		}

		public int size() {
			return 8;
		}

	}

	record FloatItem(int bits) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeFloat(Float.intBitsToFloat(this.bits));
		}

		public Item read(XdrDecoder decoder) {
			return new FloatItem(Float.floatToRawIntBits(decoder.readFloat()));
		}

		public int size() {
			return 4;
		}

	}

	record DoubleItem(long bits) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeDouble(Double.longBitsToDouble(this.bits));
		}

		public Item read(XdrDecoder decoder) {
			return new DoubleItem(Double.doubleToRawLongBits(decoder.readDouble()));
		}

		public int size() {
			return 8;
		}

	}

	/** ByteBuffer equality compares content, so these records compare by bytes. */
	record FixedOpaqueItem(ByteBuffer data) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeFixedOpaque(this.data);
		}

		public Item read(XdrDecoder decoder) {
			return new FixedOpaqueItem(decoder.readFixedOpaque(this.data.remaining()));
		}

		public int size() {
			return (int) Xdr.pad(this.data.remaining());
		}

	}

	record OpaqueItem(ByteBuffer data) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeOpaque(this.data);
		}

		public Item read(XdrDecoder decoder) {
			// The limit is exactly the length: a length at the limit is accepted.
			return new OpaqueItem(decoder.readOpaque(this.data.remaining()));
		}

		public int size() {
			return 4 + (int) Xdr.pad(this.data.remaining());
		}

	}

	record StringItem(String value) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeString(this.value);
		}

		public Item read(XdrDecoder decoder) {
			return new StringItem(decoder.readString(Integer.MAX_VALUE));
		}

		public int size() {
			return 4 + (int) Xdr.pad(this.value.getBytes(StandardCharsets.UTF_8).length);
		}

	}

	record IntArrayItem(List<Integer> values) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeInt(this.values.size());
			this.values.forEach(encoder::writeInt);
		}

		public Item read(XdrDecoder decoder) {
			int count = decoder.readArrayCount("ints", 6, 4);
			Integer[] values = new Integer[count];
			for (int i = 0; i < count; i++) {
				values[i] = decoder.readInt();
			}
			return new IntArrayItem(List.of(values));
		}

		public int size() {
			return 4 + 4 * this.values.size();
		}

	}

	record OptionalIntItem(Integer value) implements Item {

		public void write(XdrEncoder encoder) {
			encoder.writeBoolean(this.value != null);
			if (this.value != null) {
				encoder.writeInt(this.value);
			}
		}

		public Item read(XdrDecoder decoder) {
			return new OptionalIntItem(decoder.readBoolean() ? decoder.readInt() : null);
		}

		public int size() {
			return (this.value != null) ? 8 : 4;
		}

	}

}
