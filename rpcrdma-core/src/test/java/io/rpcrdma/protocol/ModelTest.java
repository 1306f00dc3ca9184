package io.rpcrdma.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.rpcrdma.oncrpc.VersionRange;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrOverflowException;
import org.junit.jupiter.api.Test;

/** The value types: grouping, immutability, unsigned views and the constraints they enforce. */
class ModelTest {

	private static final RdmaSegment A = new RdmaSegment(1, 100, 0x1000);

	private static final RdmaSegment B = new RdmaSegment(2, 200, 0x2000);

	private static final RdmaSegment C = new RdmaSegment(3, 300, 0x3000);

	@Test
	void readSegmentsWithTheSamePositionFormOneReadChunk() {
		// RFC 8166 §3.4.5: entries sharing a position are one chunk, concatenated in list
		// order, even when another position comes between them; chunks sort by position.
		List<ReadSegment> readList = List.of(new ReadSegment(64, A), new ReadSegment(8, B), new ReadSegment(64, C));
		assertThat(ReadChunk.group(readList)).containsExactly(new ReadChunk(8, List.of(B)),
				new ReadChunk(64, List.of(A, C)));
		assertThat(new ReadChunk(64, List.of(A, C)).totalLength()).isEqualTo(400);
	}

	@Test
	void readChunksFlattenIntoReadListEntries() {
		ChunkLists lists = ChunkLists.ofReadChunks(List.of(new ReadChunk(0, List.of(A)), new ReadChunk(12, List.of(B, C))),
				List.of(), null);
		assertThat(lists.readList()).containsExactly(new ReadSegment(0, A), new ReadSegment(12, B), new ReadSegment(12, C));
		assertThat(lists.hasPositionZeroReadChunk()).isTrue();
		assertThat(lists.readChunks().get(0).isPositionZero()).isTrue();
	}

	@Test
	void positionsSortUnsigned() {
		List<ReadSegment> readList = List.of(new ReadSegment(0x80000000, A), new ReadSegment(4, B));
		assertThat(ReadChunk.group(readList)).extracting(ReadChunk::position).containsExactly(4, 0x80000000);
	}

	@Test
	void readChunkNeedsASegment() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ReadChunk(4, List.of()));
	}

	@Test
	void listsAreCopiedAndImmutable() {
		List<RdmaSegment> segments = new ArrayList<>(List.of(A));
		WriteChunk chunk = new WriteChunk(segments);
		segments.add(B);
		assertThat(chunk.segments()).containsExactly(A);
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> chunk.segments().add(C));
		assertThat(WriteChunk.of(A, B).totalLength()).isEqualTo(300);
		assertThat(ChunkLists.EMPTY.isEmpty()).isTrue();
	}

	@Test
	void unsignedFieldsReadAsUnsigned() {
		RdmaSegment big = new RdmaSegment(-1, 0xffffffff, -1L);
		assertThat(big.unsignedLength()).isEqualTo(0xffffffffL);
		assertThat(new ReadSegment(0xfffffffc, A).unsignedPosition()).isEqualTo(0xfffffffcL);
		assertThat(big.toString()).contains("length=4294967295").contains("handle=0xffffffff");
	}

	@Test
	void segmentWrapsWhenItsEndPassesTwoToTheSixtyFour() {
		assertThat(new RdmaSegment(1, 0x100, 0xffff_ffff_ffff_ff00L).wrapsAround()).isFalse();
		assertThat(new RdmaSegment(1, 0x101, 0xffff_ffff_ffff_ff00L).wrapsAround()).isTrue();
		assertThat(new RdmaSegment(1, 0, -1L).wrapsAround()).isFalse();
	}

	@Test
	void versionRangesAreInclusiveAndOrdered() {
		assertThat(VersionRange.VERSIONS_1_AND_2.contains(1)).isTrue();
		assertThat(VersionRange.VERSIONS_1_AND_2.contains(2)).isTrue();
		assertThat(VersionRange.VERSIONS_1_AND_2.contains(3)).isFalse();
		assertThat(VersionRange.VERSION_1_ONLY.contains(2)).isFalse();
		assertThat(new VersionRange(1, -1).contains(0x80000000)).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> new VersionRange(2, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> new ErrVers(1, 1, 1, 3, 2));
	}

	@Test
	void payloadRulesFollowTheSpecifications() {
		ChunkLists reply = new ChunkLists(List.of(), List.of(), WriteChunk.of(A));
		assertThat(new RdmaMsg(1, 1, ChunkLists.EMPTY).payloadRule()).isEqualTo(PayloadRule.REQUIRED);
		assertThat(new RdmaMsgp(1, 1, 0, 0, ChunkLists.EMPTY).payloadRule()).isEqualTo(PayloadRule.REQUIRED);
		assertThat(new RdmaNomsg(1, 1, reply).payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
		assertThat(new RdmaDone(1, 1).payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
		assertThat(new RdmaErrChunk(1, 1).payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
		assertThat(new ErrVers(1, 1, 1, 1, 1).payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
		assertThat(new Rdma2Msg(1, 1, ChunkLists.EMPTY).payloadRule()).isEqualTo(PayloadRule.REQUIRED);
		assertThat(new Rdma2Nomsg(1, 1, reply).payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
		assertThat(new Rdma2Optional(1, 1, 1, new byte[0]).payloadRule()).isEqualTo(PayloadRule.OPTIONAL);
		assertThat(new Rdma2ErrBadHeader(1, 1).payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
		assertThat(new Rdma2ErrInvalOption(1, 1).payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
	}

	@Test
	void procedureAndErrorNumbersAreThoseOfTheSpecifications() {
		assertThat(new RdmaMsg(1, 1, ChunkLists.EMPTY).procedure()).isZero();
		assertThat(new RdmaNomsg(1, 1, ChunkLists.EMPTY).procedure()).isEqualTo(1);
		assertThat(new RdmaMsgp(1, 1, 0, 0, ChunkLists.EMPTY).procedure()).isEqualTo(2);
		assertThat(new RdmaDone(1, 1).procedure()).isEqualTo(3);
		assertThat(new RdmaErrChunk(1, 1).procedure()).isEqualTo(4);
		assertThat(new RdmaErrChunk(1, 1).errorCode()).isEqualTo(2);
		assertThat(new ErrVers(1, 2, 1, 1, 1).errorCode()).isEqualTo(1);
		assertThat(new Rdma2Optional(1, 1, 1, new byte[0]).procedure()).isEqualTo(5);
		assertThat(new Rdma2ErrBadHeader(1, 1).errorCode()).isEqualTo(2);
		assertThat(new Rdma2ErrInvalOption(1, 1).errorCode()).isEqualTo(3);
		assertThat(new Rdma2Msg(1, 1, ChunkLists.EMPTY).version()).isEqualTo(2);
		assertThat(new RdmaDone(1, 1).version()).isEqualTo(1);
	}

	@Test
	void encoderWritesNothingWhenTheHeaderDoesNotFit() {
		ByteBuffer buffer = ByteBuffer.allocate(27);
		XdrEncoder encoder = new XdrEncoder(buffer);
		assertThatExceptionOfType(XdrOverflowException.class)
			.isThrownBy(() -> TransportHeaderEncoder.encode(new RdmaMsg(1, 1, ChunkLists.EMPTY), encoder))
			.withMessageContaining("RdmaMsg");
		assertThat(buffer.position()).isZero();
	}

	@Test
	void encodingAHeaderAllocatesNothing() {
		RdmaMsg header = new RdmaMsg(1, 1, new ChunkLists(List.of(new ReadSegment(8, A)), List.of(WriteChunk.of(B)),
				WriteChunk.of(C)));
		ByteBuffer buffer = ByteBuffer.allocateDirect(256);
		XdrEncoder encoder = new XdrEncoder(buffer);
		long allocated = Allocations.allocatedBy(() -> {
			for (int i = 0; i < 100; i++) {
				encoder.reset(buffer.clear());
				TransportHeaderEncoder.encode(header, encoder);
			}
		});
		// Iterating the record's lists may allocate an iterator or two; 100 encodes of a
		// header must not cost more than a few of those each.
		assertThat(allocated).isLessThan(100 * 64);
	}

}
