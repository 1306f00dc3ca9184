package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadChunk;

/**
 * Planning a call with Read chunks into one buffer (RFC 8166 §3.4.4, RFC 5666 §3.7): the
 * same layout {@link ChunkAssembler#reassemble} produces, checked before any RDMA Read.
 */
class DirectPlacementTest {

	private static ReadChunk chunk(int position, int length) {
		return new ReadChunk(position, List.of(new RdmaSegment(1, length, 0)));
	}

	@Test
	void inlineFragmentsLandAroundTheChunksWithZeroedRoundup() {
		ByteBuffer inline = ByteBuffer.allocate(12).putInt(5).putInt(2).putInt(0xCAFE).flip();
		List<ReadChunk> chunks = List.of(chunk(4, 5), chunk(16, 2));

		DirectPlacement placement = DirectPlacement.plan(inline, chunks, true, 1 << 20);
		ByteBuffer target = ByteBuffer.allocate(placement.length());
		java.util.Arrays.fill(target.array(), (byte) 0x55);
		placement.copyInline(inline, chunks, target);
		// What the RDMA Reads would place:
		target.put(placement.chunkOffset(0), new byte[] { 1, 2, 3, 4, 5 });
		target.put(placement.chunkOffset(1), new byte[] { 6, 7 });

		ByteBuffer reassembled = ChunkAssembler.reassemble(inline, chunks,
				new ByteBuffer[] { ByteBuffer.wrap(new byte[] { 1, 2, 3, 4, 5 }), ByteBuffer.wrap(new byte[] { 6, 7 }) },
				true);
		assertThat(target.array()).isEqualTo(java.util.Arrays.copyOf(reassembled.array(), reassembled.remaining()));
		assertThat(placement.chunkOffset(0)).isEqualTo(4);
		assertThat(placement.chunkOffset(1)).isEqualTo(16);
	}

	@Test
	void badPositionsAndLengthWordsAreRefusedBeforeAnyRead() {
		ByteBuffer inline = ByteBuffer.allocate(8).putInt(4).putInt(4).flip();
		assertThatThrownBy(() -> DirectPlacement.plan(inline, List.of(chunk(6, 4)), false, 1 << 20))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("multiple of four");
		assertThatThrownBy(() -> DirectPlacement.plan(inline, List.of(chunk(40, 4)), false, 1 << 20))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("outside the XDR stream");
		assertThatThrownBy(() -> DirectPlacement.plan(inline, List.of(chunk(4, 4), chunk(4, 4)), false, 1 << 20))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("share position");
		assertThatThrownBy(() -> DirectPlacement.plan(inline, List.of(chunk(4, 7)), true, 1 << 20))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("length word before it says 4");
	}

	@Test
	void aMessageLargerThanTheLargestBufferIsLeftToTheCopyingPath() {
		ByteBuffer inline = ByteBuffer.allocate(8).putInt(4).putInt(1 << 20).flip();
		assertThat(DirectPlacement.plan(inline, List.of(chunk(8, 1 << 20)), true, 1 << 20)).isNull();
		assertThat(DirectPlacement.positionZero(chunk(0, (1 << 20) + 1), 1 << 20)).isNull();
		assertThat(DirectPlacement.positionZero(chunk(0, 100), 1 << 20).length()).isEqualTo(100);
	}

}
