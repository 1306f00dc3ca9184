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
	void aSendWithInvalidateOfTheServersLocalMemoryEndsOnlyThatConnection() throws Exception {
		RpcRdmaClientConnection honest = client(this.server, config());
		byte[] data = RpcWorkload.pattern(LENGTH, 3);
		assertThat(RpcWorkload.opaqueResult(await(honest.call(RpcWorkload.echo(1, data, true, 0, LENGTH + 64)))))
			.isEqualTo(data);
		// The STag of the local memory the server pulls Read chunks into: a peer of siw learns
		// it from the sink of the server's RDMA Read Request (RFC 5040 §4.4).
		io.rpcrdma.memory.RegisteredBuffer sink = this.serverPool.tryLease(io.rpcrdma.memory.BufferRole.LOCAL_BULK, LENGTH);
		int sinkStag = sink.region().stag();
		sink.release();
		int handledBefore = this.handled.get();

		this.raw.sendWithInvalidate(RpcWorkload.call(XID, RpcWorkload.ECHO, new byte[4]), sinkStag);

		this.raw.awaitDisconnected();
		assertThat(this.handled.get()).as("calls of the attacker handed to the RPC layer").isEqualTo(handledBefore);
		assertThat(RpcWorkload.opaqueResult(await(honest.call(RpcWorkload.echo(2, data, true, 0, LENGTH + 64)))))
			.as("the honest connection's next Read-chunk call").isEqualTo(data);
		RpcRdmaClientConnection later = client(this.server, config());
		assertThat(RpcWorkload.opaqueResult(await(later.call(RpcWorkload.echo(3, data, true, 0, LENGTH + 64)))))
			.as("a connection opened after the attack").isEqualTo(data);
	}

	@Test
	void replyDataOfferedToOneConnectionIsUnreachableFromAnother() throws Exception {
		RpcRdmaServer rfc5666 = server(v1Only().withFeatures(true, true, true), (call, replier) -> replier
			.reply(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(LENGTH, 9), true)));
		RawPeer owner = rawClient(rfc5666, PrivateData.EMPTY);
		RawPeer other = rawClient(rfc5666, PrivateData.EMPTY);
		owner.send(new RdmaMsg(XID, 2, ChunkLists.EMPTY), RpcWorkload.call(XID, RpcWorkload.GENERATE, new byte[4]));
		ReadSegment offered = ((RdmaMsg) header(owner.receive())).chunkLists().readList().get(0);
		io.rpcrdma.verbs.RemoteAddress target = new io.rpcrdma.verbs.RemoteAddress(offered.target().offset(),
				offered.target().handle());

		assertThat(other.read(target, LENGTH)).as("another connection reading the offered STag")
			.isNotEqualTo(io.rpcrdma.verbs.CompletionStatus.SUCCESS);
		other.awaitDisconnected();

		assertThat(owner.read(target, LENGTH)).as("the connection it was offered to")
			.isEqualTo(io.rpcrdma.verbs.CompletionStatus.SUCCESS);
		owner.send(new io.rpcrdma.protocol.RdmaDone(XID, 2), null);
		eventually("RDMA_DONE took the owner's reply off the server", () -> rfc5666.connections().size() == 1
				&& rfc5666.connections().get(0).awaitingDone() == 0);
	}

	@Test
	void aHostileServerCannotReachWhatTheClientOfferedAnother() throws Exception {
		java.util.concurrent.CompletableFuture<RawPeer> honestAccepted = new java.util.concurrent.CompletableFuture<>();
		java.util.concurrent.CompletableFuture<RawPeer> hostileAccepted = new java.util.concurrent.CompletableFuture<>();
		io.rpcrdma.verbs.RdmaListener honestServer = closeAfterTest(
				RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY, deadline(), honestAccepted));
		io.rpcrdma.verbs.RdmaListener hostileServer = closeAfterTest(
				RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY, deadline(), hostileAccepted));
		RpcRdmaClientConnection toHonest = closeAfterTest(await(RpcRdmaClientConnection.connect(this.clientProvider,
				this.clientPool, honestServer.localAddress(), config(), this.versionCache)));
		closeAfterTest(await(RpcRdmaClientConnection.connect(this.clientProvider, this.clientPool,
				hostileServer.localAddress(), config(), this.versionCache)));
		RawPeer honest = await(honestAccepted);
		RawPeer hostile = await(hostileAccepted);
		closeAfterTest(honest::close);
		closeAfterTest(hostile::close);

		byte[] data = RpcWorkload.pattern(LENGTH, 11);
		toHonest.call(RpcWorkload.echo(1, data, true, 0, LENGTH + 64));
		io.rpcrdma.protocol.ChunkedHeader call = (io.rpcrdma.protocol.ChunkedHeader) header(honest.receive());
		ReadSegment offered = call.chunkLists().readList().get(0);
		io.rpcrdma.verbs.RemoteAddress target = new io.rpcrdma.verbs.RemoteAddress(offered.target().offset(),
				offered.target().handle());

		assertThat(hostile.read(target, LENGTH)).as("the hostile server reading what the client offered the other")
			.isNotEqualTo(io.rpcrdma.verbs.CompletionStatus.SUCCESS);
		assertThat(honest.read(target, LENGTH)).as("the server it was offered to")
			.isEqualTo(io.rpcrdma.verbs.CompletionStatus.SUCCESS);
	}

	@Test
	void aConnectionHoldsNoMoreBulkMemoryThanItsShare() throws Exception {
		int length = 16 << 10;
		java.util.concurrent.LinkedBlockingQueue<Runnable> held = new java.util.concurrent.LinkedBlockingQueue<>();
		AtomicInteger digests = new AtomicInteger();
		// Calls of 16 KiB and a little, each placed in a buffer of 32 KiB (a share counts whole
		// buffers), and a share of 80 KiB: two fit, the third waits.
		RpcRdmaServer shared = server(config().withPeerLimits(PeerLimits.DEFAULTS.withBulkShare(80 << 10)),
				(call, replier) -> {
					if (call.message().getInt(call.message().position() + 20) == RpcWorkload.DIGEST) {
						digests.incrementAndGet();
						held.add(() -> RpcWorkload.serve(call, replier));
					}
					else {
						RpcWorkload.serve(call, replier);
					}
				});
		RawPeer hog = rawClient(shared, PrivateData.EMPTY);
		MemoryRegion big = hog.region(length, AccessFlag.REMOTE_READ);
		ByteBuffer whole = RpcWorkload.call(XID, RpcWorkload.DIGEST, new byte[length]);
		DdpRange item = RpcWorkload.argumentItem(XID, RpcWorkload.DIGEST, length);
		ByteBuffer inline = ByteBuffer.allocate(whole.remaining() - item.paddedLength());
		inline.put(whole.slice(0, item.offset())).put(whole.slice(item.paddedEnd(), whole.remaining() - item.paddedEnd()));
		inline.flip();
		for (int i = 0; i < 6; i++) {
			// The same XID in every call: the RPC layer here does not care, the transport must not.
			hog.send(new RdmaMsg(XID, 8, new ChunkLists(List.of(new ReadSegment(item.offset(), big.stag(), length,
					big.address())), List.of(), null)), inline.duplicate());
		}
		RpcRdmaServerConnection hogged = onlyConnection(shared);
		eventually("six calls received, four of them waiting for the share",
				() -> hogged.outstanding() == 6 && hogged.stats().bulkShareWaits() == 4);
		eventually("two calls placed", () -> digests.get() == 2);

		RpcRdmaClientConnection honest = client(shared, config());
		byte[] data = RpcWorkload.pattern(length, 4);
		assertThat(RpcWorkload.opaqueResult(await(honest.call(RpcWorkload.echo(1, data, true, 0, length + 64)))))
			.as("a call on another connection, with the first holding its share").isEqualTo(data);
		assertThat(digests.get()).as("calls of the hog placed while it holds its share").isEqualTo(2);

		for (int answered = 0; answered < 6; answered++) {
			Runnable next = held.poll(deadline().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
			assertThat(next).as("call %d placed once an earlier one was answered", answered + 1).isNotNull();
			next.run();
			assertThat(header(hog.receive())).isInstanceOf(RdmaMsg.class);
		}
		eventually("every credit back", () -> hogged.outstanding() == 0);
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
