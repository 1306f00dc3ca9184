package io.rpcrdma.service.codec;

import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rpcrdma.service.codec.Model.Color;
import io.rpcrdma.service.codec.Model.Measurement;
import io.rpcrdma.service.codec.Model.Node;
import io.rpcrdma.service.codec.Model.Positive;
import io.rpcrdma.service.codec.Model.Primitives;
import io.rpcrdma.service.codec.Model.Tree;
import io.rpcrdma.xdr.AllocationMeter;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;
import io.rpcrdma.xdr.XdrLimitExceededException;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * What a hostile or broken peer can send: counts and lengths over the limits, counts the
 * data cannot hold, deep nesting, values outside their type. Each fails with the specific
 * XDR exception, before allocating from the claimed size, and never with an
 * OutOfMemoryError or StackOverflowError.
 */
class HostileInputTest {

	private static final CodecLimits LIMITS = CodecLimits.DEFAULTS.withMaxCollectionSize(1000).withMaxStringBytes(64)
		.withMaxOpaqueBytes(128).withMaxDepth(50);

	private final CodecRegistry registry = CodecRegistry.builder().limits(LIMITS).build();

	@Test
	void collectionCountOverTheLimitIsRejectedBeforeAllocating() {
		XdrCodec<?> list = this.registry.codecFor(new TypeCapture<List<String>>() { }.type());
		byte[] wire = hex("7fffffff // claims 2^31-1 elements");
		assertThatExceptionOfType(XdrLimitExceededException.class).isThrownBy(() -> decode(list, wire))
			.withMessageContaining("list count of 2147483647 exceeds the limit of 1000");
		assertThat(AllocationMeter.bytesAllocatedBy(() -> decode(list, wire))).isLessThan(4096);
	}

	@Test
	void countTheRemainingBytesCannotHoldIsTruncationNotAllocation() {
		XdrCodec<?> longs = this.registry.codecFor(long[].class);
		byte[] wire = hex("000003e8 // 1000 hypers claimed \n 00000000 00000001 // only one present");
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> decode(longs, wire))
			.withMessageContaining("array of 1000 elements");
		assertThat(AllocationMeter.bytesAllocatedBy(() -> decode(longs, wire))).as("no array of 1000 longs").isLessThan(4096);
		XdrCodec<?> map = this.registry.codecFor(new TypeCapture<Map<Integer, Long>>() { }.type());
		// each entry takes at least 4 (int *) + 4 (hyper *) bytes
		assertThatExceptionOfType(XdrTruncatedException.class).isThrownBy(() -> decode(map, hex("00000002 00000000 00000000")));
	}

	@Test
	void stringAndOpaqueLengthsOverTheLimitAreRejected() {
		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(String.class), hex("00000041 // 65 bytes > 64")))
			.withMessageContaining("of 65 exceeds the limit of 64");
		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(byte[].class), hex("ffffffff")));
		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(ByteBuffer.class), hex("00000081")));
	}

	@Test
	void encodingOverTheLimitIsRefusedSoThePeerIsNotSentWhatItWouldReject() {
		XdrCodec<String> strings = this.registry.codecFor(String.class);
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(1024));
		assertThatExceptionOfType(XdrInvalidValueException.class).isThrownBy(() -> strings.encode("x".repeat(65), encoder))
			.withMessageContaining("longer than the limit of 64");
	}

	@Test
	void deeplyNestedListFailsAtTheDepthLimitWithoutStackOverflow() {
		XdrCodec<Node> nodes = this.registry.codecFor(Node.class);
		int levels = 100_000;
		ByteBuffer wire = ByteBuffer.allocate(levels * 8 + 8);
		for (int i = 0; i < levels; i++) {
			wire.putInt(i).putInt(1); // value, next present
		}
		wire.putInt(0).putInt(0).flip();
		assertThatExceptionOfType(XdrLimitExceededException.class).isThrownBy(() -> nodes.decode(new XdrDecoder(wire)))
			.withMessageContaining("nesting depth of " + Node.class.getTypeName())
			.withMessageContaining("exceeds the limit of 50");
	}

	@Test
	void deeplyNestedTreeFailsAtTheDepthLimit() {
		XdrCodec<Tree> trees = this.registry.codecFor(Tree.class);
		ByteBuffer wire = ByteBuffer.allocate(100_000 * 8);
		while (wire.remaining() >= 8) {
			wire.putInt(0).putInt(1); // empty label, one child
		}
		assertThatExceptionOfType(XdrLimitExceededException.class).isThrownBy(() -> trees.decode(new XdrDecoder(wire.flip())))
			.withMessageContaining("nesting depth");
	}

	@Test
	void nestingUpToTheLimitDecodesAndTheDepthCountIsReleased() {
		XdrCodec<Node> nodes = this.registry.codecFor(Node.class);
		Node head = chain(51); // 50 recursive steps: the limit
		assertThat(Coding.decode(nodes, Coding.encode(nodes, head))).isEqualTo(head);
		assertThatExceptionOfType(XdrInvalidValueException.class).isThrownBy(() -> Coding.encode(nodes, chain(52)))
			.withMessageContaining("nests deeper than the limit of 50");
		// after the failures, nothing is left counted on this thread
		assertThat(Coding.decode(nodes, Coding.encode(nodes, head))).isEqualTo(head);
	}

	@Test
	void cyclicObjectGraphFailsToEncodeInsteadOfLooping() {
		XdrCodec<Measurement> codec = this.registry.codecFor(Measurement.class);
		Measurement cyclic = new Measurement(1.0, "m", null);
		cyclic.previous = cyclic;
		assertThatExceptionOfType(XdrInvalidValueException.class).isThrownBy(() -> codec.encodedSize(cyclic))
			.withMessageContaining("cyclic");
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> codec.encode(cyclic, new XdrEncoder(ByteBuffer.allocate(1 << 16))));
	}

	@Test
	void valuesOutsideTheirTypeAreInvalid() {
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(boolean.class), hex("00000002")));
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(byte.class), hex("00000080 // 128")))
			.withMessageContaining("outside the range of a Java byte");
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(char.class), hex("ffffffff")));
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(Color.class), hex("00000003 // no fourth color")))
			.withMessageContaining("XDR enum value 3 is not a constant of " + Color.class.getName());
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(String.class), hex("00000002 c3280000 // invalid UTF-8")));
	}

	@Test
	void repeatedSetElementsAndMapKeysAreInvalid() {
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(new TypeCapture<Set<Color>>() { }.type()), hex("00000002 00000001 00000001")))
			.withMessageContaining("repeats element 1");
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(new TypeCapture<Map<Color, Color>>() { }.type()),
					hex("00000002 00000000 00000001 00000000 00000002")))
			.withMessageContaining("repeats the key of entry 1");
	}

	@Test
	void valuesARecordConstructorRejectsAreInvalidData() {
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> decode(this.registry.codecFor(Positive.class), hex("ffffffff")))
			.withMessageContaining("rejected by " + Positive.class.getTypeName())
			.withMessageContaining("value must be positive: -1");
	}

	@Test
	void nullWhereXdrHasNoOptionalIsRefusedWithAHint() {
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(64));
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> this.registry.codecFor(String.class).encode(null, encoder))
			.withMessageContaining("null cannot be encoded as XDR string")
			.withMessageContaining("Optional<...> or annotate it @XdrOptional");
		assertThatExceptionOfType(XdrInvalidValueException.class)
			.isThrownBy(() -> this.registry.codecFor(Primitives.class).encode(null, encoder));
	}

	private static Node chain(int length) {
		Node head = null;
		for (int i = length; i > 0; i--) {
			head = new Node(i, head);
		}
		return head;
	}

	private static Object decode(XdrCodec<?> codec, byte[] wire) {
		return codec.decode(new XdrDecoder(ByteBuffer.wrap(wire)));
	}

}
