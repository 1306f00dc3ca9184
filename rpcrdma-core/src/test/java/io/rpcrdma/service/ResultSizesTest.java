package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.rpcrdma.service.codec.CodecRegistry;

/**
 * The largest encoding of a result decides how much room a client makes for the reply.
 */
class ResultSizesTest {

	private final CodecRegistry codecs = CodecRegistry.standard();

	record Point(int x, long y, boolean z) {
	}

	record Node(String name, Optional<Node> next) {
	}

	@Test
	void fixedSizeTypesHaveExactBounds() {
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(int.class))).isEqualTo(4);
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(long.class))).isEqualTo(8);
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(double.class))).isEqualTo(8);
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(Point.class))).isEqualTo(16);
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(Integer.class))).isEqualTo(8);
	}

	@Test
	void unboundedAndRecursiveTypesHaveNone() {
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(String.class))).isEqualTo(ResultSizes.UNBOUNDED);
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(Node.class))).isEqualTo(ResultSizes.UNBOUNDED);
		assertThat(ResultSizes.maxEncodedSize(this.codecs.codecFor(byte[].class))).isEqualTo(ResultSizes.UNBOUNDED);

	}

}
