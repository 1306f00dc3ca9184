package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadChunk;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.WriteChunk;

/**
 * Reassembly of Read chunks into the XDR stream (RFC 8166 §3.4.4, RFC 5666 §3.7) and chunk
 * list sanity checks.
 */
class ChunkAssemblerTest {

	private static ReadChunk chunk(int position, int length) {
		return new ReadChunk(position, List.of(new RdmaSegment(1, length, 0)));
	}

	@Test
	void chunksAreInsertedAtTheirPositionsWithXdrRoundupRestored() {
		// stream: [len=5][data 5 + 3 pad][len=2][data 2 + 2 pad][tail]
		ByteBuffer inline = ByteBuffer.allocate(12).putInt(5).putInt(2).putInt(0xCAFE).flip();
		ByteBuffer first = ByteBuffer.wrap(new byte[] { 1, 2, 3, 4, 5 });
		ByteBuffer second = ByteBuffer.wrap(new byte[] { 6, 7 });

		ByteBuffer whole = ChunkAssembler.reassemble(inline, List.of(chunk(4, 5), chunk(16, 2)),
				new ByteBuffer[] { first, second }, true);

		byte[] bytes = new byte[whole.remaining()];
		whole.get(bytes);
		assertThat(bytes).containsExactly(0, 0, 0, 5, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 2, 6, 7, 0, 0, 0, 0, (byte) 0xCA,
				(byte) 0xFE);
	}

	@Test
	void aLengthThatDisagreesWithTheXdrLengthWordIsRejected() {
		ByteBuffer inline = ByteBuffer.allocate(4).putInt(6).flip();
		assertThatThrownBy(() -> ChunkAssembler.reassemble(inline, List.of(chunk(4, 5)),
				new ByteBuffer[] { ByteBuffer.allocate(5) }, true))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("length word");
	}

	@Test
	void unalignedDuplicateOrOutOfRangePositionsAreRejected() {
		ByteBuffer inline = ByteBuffer.allocate(8).putInt(4).putInt(4).flip();
		ByteBuffer four = ByteBuffer.allocate(4);
		assertThatThrownBy(() -> ChunkAssembler.reassemble(inline, List.of(chunk(2, 4)), new ByteBuffer[] { four }, false))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("multiple of four");
		assertThatThrownBy(() -> ChunkAssembler.reassemble(inline, List.of(chunk(40, 4)), new ByteBuffer[] { four }, false))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("outside");
		assertThatThrownBy(() -> ChunkAssembler.reassemble(inline, List.of(chunk(4, 4), chunk(4, 4)),
				new ByteBuffer[] { four, four }, false))
			.isInstanceOf(ChunkValidationException.class);
		assertThatThrownBy(() -> ChunkAssembler.reassemble(inline, List.of(chunk(0x80000000, 4)),
				new ByteBuffer[] { four }, false))
			.isInstanceOf(ChunkValidationException.class);
	}

	@Test
	void overlappingSegmentsOfOneStagAreRejectedAndDisjointOnesAccepted() {
		ChunkLists overlapping = new ChunkLists(List.of(new ReadSegment(4, 7, 100, 1000)),
				List.of(WriteChunk.of(new RdmaSegment(7, 10, 1090))), null);
		assertThatThrownBy(() -> ChunkAssembler.checkNoOverlap(overlapping))
			.isInstanceOf(ChunkValidationException.class)
			.hasMessageContaining("overlap");
		ChunkLists disjoint = new ChunkLists(List.of(new ReadSegment(4, 7, 100, 1000)),
				List.of(WriteChunk.of(new RdmaSegment(7, 10, 1100)), WriteChunk.of(new RdmaSegment(8, 10, 1000))),
				WriteChunk.of(new RdmaSegment(9, 0, 0)));
		ChunkAssembler.checkNoOverlap(disjoint);
		ChunkLists highAddresses = new ChunkLists(List.of(),
				List.of(WriteChunk.of(new RdmaSegment(7, 16, 0xFFFF_FFFF_FFFF_FF00L)),
						WriteChunk.of(new RdmaSegment(7, 16, 0xFFFF_FFFF_FFFF_FF08L))),
				null);
		assertThatThrownBy(() -> ChunkAssembler.checkNoOverlap(highAddresses))
			.isInstanceOf(ChunkValidationException.class);
	}

}
