package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.transport.InboundCall;
import io.rpcrdma.xdr.XdrEncoder;

class ServerCallTest {

	private final ServerCall call = new ServerCall(RpcCall.of(7, 100_003, 3, 6),
			new ChunkOffer(1, List.of(4096L), 0));

	@Test
	void writeDdpOpaqueMarksTheDataRelativeToTheReplyStart() {
		XdrEncoder results = resultsAfterAReplyHeaderAt16(ByteBuffer.allocate(256));

		this.call.writeDdpOpaque(results, ByteBuffer.wrap(new byte[] { 1, 2, 3, 4, 5 }));

		assertThat(this.call.ddpItems()).containsExactly(new DdpRange(24, 5));
		assertThat(this.call.xid()).isEqualTo(7);
		assertThat(this.call.procedure()).isEqualTo(6);
		assertThat(this.call.rdmaVersion()).isEqualTo(1);
		assertThat(this.call.writeChunkCapacities()).containsExactly(4096L);
	}

	@Test
	void dataByReferenceLeavesOnlyItsLengthWordInTheResultsAndIsMarkedApart() {
		ByteBuffer buffer = ByteBuffer.allocate(256);
		XdrEncoder results = resultsAfterAReplyHeaderAt16(buffer);
		ByteBuffer data = ByteBuffer.wrap(new byte[4096]).position(1);
		assertThat(this.call.acceptsDdpByReference(4095)).as("not allowed by the dispatcher").isFalse();

		this.call.allowDdpByReference(true);
		assertThat(this.call.acceptsDdpByReference(4097)).as("larger than the Write chunk").isFalse();
		assertThat(this.call.acceptsDdpByReference(4095)).isTrue();
		this.call.writeDdpOpaqueByReference(results, data);

		assertThat(results.position()).as("only the length word was written").isEqualTo(16 + 24);
		assertThat(buffer.getInt(16 + 20)).isEqualTo(4095);
		assertThat(data.position()).as("the data is not moved").isEqualTo(1);
		DdpRange item = this.call.ddpItems().get(0);
		assertThat(item.offset()).isEqualTo(24);
		assertThat(item.length()).isEqualTo(4095);
		assertThat(item.isReduced()).isTrue();
		assertThat(item.paddedEnd()).as("it occupies nothing in the reply").isEqualTo(24);
		assertThat(this.call.acceptsDdpByReference(1)).as("no second Write chunk was offered").isFalse();
		assertThatThrownBy(() -> this.call.writeDdpOpaqueByReference(results, ByteBuffer.allocate(1)))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("acceptsDdpByReference");
	}

	@Test
	void misplacedOrOverlappingMarksAreRefusedWithTheReason() {
		assertThatThrownBy(() -> this.call.markDdpEligible(4, 10)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("after the reply header");
		assertThatThrownBy(() -> this.call.markDdpEligible(26, 10)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("multiple of four");
		this.call.markDdpEligible(24, 10);
		assertThatThrownBy(() -> this.call.markDdpEligible(32, 4)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("overlaps");
		this.call.discardMarks();
		assertThat(this.call.ddpItems()).isEmpty();
	}

	/** A reply starting at 16, with 20 bytes of header and status written: results follow. */
	private XdrEncoder resultsAfterAReplyHeaderAt16(ByteBuffer buffer) {
		buffer.position(16);
		this.call.replyStartsAt(16);
		XdrEncoder results = new XdrEncoder(buffer);
		results.writeHyper(0).writeHyper(0).writeInt(0);
		return results;
	}

	@Test
	void theReplyBufferHasRoomForOfferedChunksButIsBoundedWhateverThePeerOffers() {
		ByteBuffer message = ByteBuffer.allocate(8);
		int largest = 16 << 20;
		assertThat(RpcServer.replyCapacity(4096, new InboundCall(1, 2, message, List.of(), 0), largest))
			.isEqualTo(4096);
		assertThat(RpcServer.replyCapacity(4096, new InboundCall(1, 2, message, List.of(100_000L), 20_000), largest))
			.isEqualTo(20_000 + 100_004);
		// A chunk larger than any local bulk buffer can never be filled: counted at that size.
		assertThat(RpcServer.replyCapacity(1024, new InboundCall(1, 1, message, List.of(4L << 30), 0), largest))
			.isEqualTo(1024 + largest + 4);
		assertThat(RpcServer.replyCapacity(1024,
				new InboundCall(1, 1, message, List.of(4L << 30, 4L << 30, 4L << 30, 4L << 30, 4L << 30), 4L << 30),
				largest))
			.isEqualTo(RpcServer.MAX_REPLY_BUFFER);
	}

}
