package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaNomsg;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A requester that sends crafted headers gets RDMA_ERROR or is disconnected; the server never
 * crashes, hangs, leaks or hands wrong data to its RPC layer (RFC 8166 §4.5, §8).
 */
abstract class HostilePeerTests extends RpcRdmaTransportKit {

	private static final int XID = 0x600;

	private static final int LENGTH = 3000;

	private final AtomicInteger handled = new AtomicInteger();

	private RpcRdmaServer server;

	private RawPeer raw;

	private MemoryRegion data;

	private byte[] argument;

	@BeforeEach
	void connectRawClient() throws Exception {
		this.server = server(config(), (call, replier) -> {
			this.handled.incrementAndGet();
			RpcWorkload.serve(call, replier);
		});
		this.raw = rawClient(this.server, PrivateData.EMPTY);
		this.argument = RpcWorkload.pattern(LENGTH, 8);
		this.data = this.raw.region(4096, AccessFlag.REMOTE_READ);
		this.data.buffer().put(0, this.argument);
	}

	private int position() {
		return RpcWorkload.argumentItem(XID, RpcWorkload.DIGEST, LENGTH).offset();
	}

	/** The DIGEST call without its argument's data, which travels in a Read chunk. */
	private ByteBuffer inline() {
		ByteBuffer whole = RpcWorkload.call(XID, RpcWorkload.DIGEST, this.argument);
		DdpRange item = RpcWorkload.argumentItem(XID, RpcWorkload.DIGEST, LENGTH);
		ByteBuffer out = ByteBuffer.allocate(whole.remaining() - item.paddedLength());
		out.put(whole.slice(0, item.offset())).put(whole.slice(item.paddedEnd(), whole.remaining() - item.paddedEnd()));
		return out.flip();
	}

	private void sendWithReadSegment(int position, int stag, int length, long address) {
		this.raw.send(new RdmaMsg(XID, 4, new ChunkLists(List.of(new ReadSegment(position, stag, length, address)),
				List.of(), null)), inline());
	}

	private void expectErrChunk() {
		TransportHeader reply = header(this.raw.receive());
		assertThat(reply).isInstanceOf(RdmaErrChunk.class);
		assertThat(reply.xid()).isEqualTo(XID);
		assertThat(this.handled.get()).as("calls handed to the RPC layer").isZero();
		assertStillServing();
	}

	private void assertStillServing() {
		this.raw.send(new RdmaMsg(XID + 1, 4, ChunkLists.EMPTY), RpcWorkload.call(XID + 1, RpcWorkload.ECHO, new byte[4]));
		TransportHeader reply = header(this.raw.receive());
		assertThat(reply).isInstanceOf(RdmaMsg.class);
		assertThat(reply.xid()).isEqualTo(XID + 1);
	}

	private void expectDisconnectAndAHealthyServer() throws Exception {
		this.raw.awaitDisconnected();
		assertThat(this.handled.get()).isZero();
		RpcRdmaClientConnection honest = client(this.server, config());
		await(honest.call(RpcWorkload.echo(1, new byte[8], false, 0, 0)));
		honest.close();
		eventually("the server returned every buffer", () -> this.serverPool.stats().leasedBytes() == 0);
	}

	@Test
	void aWellFormedReadChunkFromTheRawPeerIsServedCorrectly() {
		sendWithReadSegment(position(), this.data.stag(), LENGTH, this.data.address());
		ByteBuffer reply = this.raw.receive();
		assertThat(header(reply)).isInstanceOf(RdmaMsg.class);
		ByteBuffer rpc = payload(reply);
		io.rpcrdma.xdr.XdrDecoder decoder = new io.rpcrdma.xdr.XdrDecoder(rpc);
		io.rpcrdma.oncrpc.RpcMessageCodec.decodeReply(decoder);
		assertThat(decoder.readInt()).isEqualTo(LENGTH);
		assertThat(decoder.readHyper()).isEqualTo(RpcWorkload.crc(this.argument));
	}

	@Test
	void anUnalignedReadChunkPositionGetsErrChunk() {
		sendWithReadSegment(position() + 2, this.data.stag(), LENGTH, this.data.address());
		expectErrChunk();
	}

	@Test
	void aReadChunkPositionPastTheMessageGetsErrChunk() {
		sendWithReadSegment(0x10000, this.data.stag(), LENGTH, this.data.address());
		expectErrChunk();
	}

	@Test
	void aReadChunkLengthThatDisagreesWithTheXdrLengthGetsErrChunk() {
		sendWithReadSegment(position(), this.data.stag(), LENGTH - 4, this.data.address());
		expectErrChunk();
	}

	@Test
	void overlappingSegmentsGetErrChunk() {
		ChunkLists lists = new ChunkLists(List.of(new ReadSegment(position(), this.data.stag(), LENGTH, this.data.address())),
				List.of(WriteChunk.of(new RdmaSegment(this.data.stag(), 64, this.data.address() + 100))), null);
		this.raw.send(new RdmaMsg(XID, 4, lists), inline());
		expectErrChunk();
	}

	@Test
	void hugeSegmentCountsGetErrChunk() {
		ByteBuffer message = ByteBuffer.allocate(64);
		XdrEncoder out = new XdrEncoder(message);
		out.writeInt(XID).writeInt(1).writeInt(4).writeInt(RpcRdmaConstants.RDMA_MSG);
		out.writeInt(0).writeInt(1).writeInt(0x7FFFFFFF).writeInt(1).writeInt(2).writeHyper(3);
		this.raw.send(message.flip());
		expectErrChunk();
	}

	@Test
	void aSegmentLengthBeyondEveryLimitGetsErrChunk() {
		sendWithReadSegment(position(), this.data.stag(), 0xFFFF_FFF0, this.data.address());
		expectErrChunk();
	}

	@Test
	void aNomsgCallWithoutAPositionZeroReadChunkGetsErrChunk() {
		MemoryRegion sink = this.raw.region(4096, AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE);
		this.raw.send(new RdmaNomsg(XID, 4,
				new ChunkLists(List.of(), List.of(), WriteChunk.of(new RdmaSegment(sink.stag(), 4096, sink.address())))),
				null);
		expectErrChunk();
	}

	@Test
	void aReadSegmentBeyondTheAdvertisedRegionEndsOnlyThatConnection() throws Exception {
		// Claims LENGTH bytes starting 2 KB into a 4 KB region: the RDMA Read is out of bounds.
		sendWithReadSegment(position(), this.data.stag(), LENGTH, this.data.address() + 2048);
		expectDisconnectAndAHealthyServer();
	}

	@Test
	void aBogusStagEndsOnlyThatConnection() throws Exception {
		sendWithReadSegment(position(), this.data.stag() ^ 0x5A5A5A00, LENGTH, this.data.address());
		expectDisconnectAndAHealthyServer();
	}

	@Test
	void aMessageTooShortForAHeaderEndsTheConnection() throws Exception {
		this.raw.send(bytes(XID));
		expectDisconnectAndAHealthyServer();
	}

	@Test
	void aWriteChunkTheServerMayNotWriteEndsTheConnectionNotTheServer() throws Exception {
		// The Write chunk names read-only memory: the server's RDMA Write is refused.
		MemoryRegion readOnly = this.raw.region(4096, AccessFlag.REMOTE_READ);
		byte[] count = ByteBuffer.allocate(4).putInt(1000).array();
		this.raw.send(new RdmaMsg(XID, 4, new ChunkLists(List.of(),
				List.of(WriteChunk.of(new RdmaSegment(readOnly.stag(), 4096, readOnly.address()))), null)),
				RpcWorkload.call(XID, RpcWorkload.GENERATE, count));
		this.raw.awaitDisconnected();
		RpcRdmaClientConnection honest = client(this.server, config());
		await(honest.call(RpcWorkload.echo(1, new byte[8], false, 0, 0)));
	}

	@Test
	void aReadChunkLargerThanAnyLocalBufferGetsErrChunk() throws Exception {
		RpcRdmaServer roomy = server(config().withHeaderLimits(new io.rpcrdma.protocol.HeaderLimits(16, 16, 1L << 30, 1024)),
				(call, replier) -> {
					this.handled.incrementAndGet();
					RpcWorkload.serve(call, replier);
				});
		RawPeer peer = rawClient(roomy, PrivateData.EMPTY);
		int huge = 64 << 20;
		ByteBuffer whole = RpcWorkload.call(XID, RpcWorkload.DIGEST, new byte[0]);
		ByteBuffer inline = ByteBuffer.allocate(whole.remaining()).put(whole.duplicate());
		inline.putInt(inline.position() - 4, huge).flip();
		peer.send(new RdmaMsg(XID, 4, new ChunkLists(List.of(new ReadSegment(position(), this.data.stag(), huge,
				this.data.address())), List.of(), null)), inline);

		TransportHeader reply = header(peer.receive());

		assertThat(reply).isInstanceOf(RdmaErrChunk.class);
		assertThat(this.handled.get()).isZero();
	}

	@Test
	void anRpcLayerThatThrowsGivesTheCreditBack() throws Exception {
		RpcRdmaServer throwing = server(config(), (call, replier) -> {
			throw new IllegalStateException("the RPC layer failed");
		});
		RawPeer peer = rawClient(throwing, PrivateData.EMPTY);
		peer.send(new RdmaMsg(XID, 4, ChunkLists.EMPTY), RpcWorkload.call(XID, RpcWorkload.ECHO, new byte[4]));
		RpcRdmaServerConnection connection = onlyConnection(throwing);
		eventually("the dropped call's credit is back", () -> connection.stats() != null && connection.outstanding() == 0
				&& connection.grant() > 0);
	}

}
