package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaDone;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaMsgp;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RemoteAddress;

/**
 * What RFC 5666 peers do that RFC 8166 removed: RDMA_MSGP, reply data in Read chunks and
 * RDMA_DONE (RFC 5666 §3.4, §4.3, §11).
 */
abstract class Rfc5666CompatibilityTests extends RpcRdmaTransportKit {

	private static TransportConfig readChunkReplies() {
		return v1Only().withFeatures(true, true, true);
	}

	@Test
	void replyDataInReadChunksIsPulledAndAcknowledgedWithRdmaDone() throws Exception {
		LinkedBlockingQueue<CompletableFuture<Void>> sent = new LinkedBlockingQueue<>();
		RpcRdmaServer server = server(readChunkReplies(), (call, replier) -> {
			int length = call.message().getInt(call.message().limit() - 4);
			sent.add(replier.reply(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(length, 3), true)));
		});
		RpcRdmaClientConnection client = client(server, v1Only());

		InboundReply reply = await(client.call(RpcWorkload.generate(1, 3000, 0, 0)));

		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(3000, 3));
		assertThat(client.stats().readChunksPulled()).isEqualTo(1);
		assertThat(client.stats().doneSent()).isEqualTo(1);
		await(sent.take());
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.stats().doneReceived()).isEqualTo(1);
		assertThat(connection.awaitingDone()).isZero();
		assertThat(connection.outstanding()).isZero();
		assertThat(client.credits().outstanding()).isZero();
	}

	@Test
	void replyDataCarriedApartFromTheReplyIsOfferedInAReadChunkToo() throws Exception {
		RpcRdmaServer server = server(readChunkReplies(), (call, replier) -> {
			int length = call.message().getInt(call.message().limit() - 4);
			replier.reply(RpcWorkload.replyApart(call.xid(), RpcWorkload.pattern(length, 5), 77));
		});
		RpcRdmaClientConnection client = client(server, v1Only());

		InboundReply reply = await(client.call(RpcWorkload.generate(2, 3001, 0, 0)));

		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(3001, 5));
		assertThat(client.stats().readChunksPulled()).isEqualTo(1);
	}

	@Test
	void withoutRdmaDoneTheServerReclaimsItsReadChunksAfterTheTimeout() throws Exception {
		LinkedBlockingQueue<CompletableFuture<Void>> sent = new LinkedBlockingQueue<>();
		RpcRdmaServer server = server(
				readChunkReplies().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofMillis(200)),
				(call, replier) -> sent.add(replier.reply(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(3000, 3), true))));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsg(9, 2, ChunkLists.EMPTY), RpcWorkload.call(9, RpcWorkload.GENERATE, new byte[4]));
		RdmaMsg reply = (RdmaMsg) header(raw.receive());
		assertThat(reply.chunkLists().readList()).hasSize(1);
		ReadSegment segment = reply.chunkLists().readList().get(0);

		Throwable reclaimed = failure(sent.take());

		assertThat(reclaimed).isInstanceOf(TransportClosedException.class).hasMessageContaining("RDMA_DONE");
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.awaitingDone()).isZero();
		assertThat(connection.outstanding()).isZero();
		// The reclaimed buffer's STag no longer works (RFC 5666 §11).
		assertThat(raw.read(new RemoteAddress(segment.target().offset(), segment.target().handle()), 3000))
			.isNotEqualTo(CompletionStatus.SUCCESS);
	}

	@Test
	void aReusedXidReclaimsTheEarlierReplysChunksInsteadOfLeakingThem() throws Exception {
		RpcRdmaServer server = server(readChunkReplies(),
				(call, replier) -> replier.reply(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(3000, 3), true)));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsg(9, 4, ChunkLists.EMPTY), RpcWorkload.call(9, RpcWorkload.GENERATE, new byte[4]));
		assertThat(((RdmaMsg) header(raw.receive())).chunkLists().readList()).hasSize(1);
		raw.send(new RdmaMsg(9, 4, ChunkLists.EMPTY), RpcWorkload.call(9, RpcWorkload.GENERATE, new byte[4]));
		assertThat(((RdmaMsg) header(raw.receive())).chunkLists().readList()).hasSize(1);
		RpcRdmaServerConnection connection = onlyConnection(server);

		eventually("one reply awaits RDMA_DONE, holding one credit",
				() -> connection.awaitingDone() == 1 && connection.outstanding() == 1);
		raw.send(new RdmaDone(9, 4), null);
		eventually("the later reply is acknowledged", () -> connection.awaitingDone() == 0 && connection.outstanding() == 0);
		raw.close();
		eventually("the server has every buffer back", () -> this.serverPool.stats().leasedBytes() == 0);
	}

	@Test
	void aReplyAwaitingRdmaDoneStillHoldsItsCredit() throws Exception {
		RpcRdmaServer server = server(readChunkReplies().withCredits(8, 1, 12)
			.withCreditViolation(CreditViolationPolicy.REPLY_ERROR),
				(call, replier) -> replier.reply(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(3000, 3), true)));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsg(1, 1, ChunkLists.EMPTY), RpcWorkload.call(1, RpcWorkload.GENERATE, new byte[4]));
		assertThat(((RdmaMsg) header(raw.receive())).chunkLists().readList()).hasSize(1);

		raw.send(new RdmaMsg(2, 1, ChunkLists.EMPTY), RpcWorkload.call(2, RpcWorkload.ECHO, new byte[4]));
		assertThat(header(raw.receive())).isEqualTo(new RdmaErrChunk(2, 1));

		raw.send(new RdmaDone(1, 1), null);
		raw.send(new RdmaMsg(3, 1, ChunkLists.EMPTY), RpcWorkload.call(3, RpcWorkload.ECHO, new byte[4]));
		TransportHeader third = header(raw.receive());
		assertThat(third).isInstanceOf(RdmaMsg.class);
		assertThat(third.xid()).isEqualTo(3);
	}

	@Test
	void anRdmaMsgpCallIsServedAndAnsweredWithRdmaMsg() throws Exception {
		RpcRdmaServer server = echoServer(v1Only());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsgp(0x21, 1, 4, 0, ChunkLists.EMPTY), RpcWorkload.call(0x21, RpcWorkload.ECHO, new byte[] { 1, 2, 3 }));

		ByteBuffer reply = raw.receive();

		assertThat(header(reply)).isInstanceOf(RdmaMsg.class);
		assertThat(header(reply).xid()).isEqualTo(0x21);
	}

	@Test
	void aLongReplyWithoutReplyChunkIsPulledFromAPositionZeroReadChunk() throws Exception {
		RpcRdmaServer server = server(readChunkReplies(), (call, replier) -> replier
			.reply(OutboundReply.inline(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(6000, 3), true).message())));
		RpcRdmaClientConnection client = client(server, v1Only());

		InboundReply reply = await(client.call(RpcWorkload.generate(2, 6000, 0, 0)));

		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(6000, 3));
		assertThat(client.stats().doneSent()).isEqualTo(1);
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.stats().positionZeroChunksSent()).isEqualTo(1);
		eventually("the server got RDMA_DONE", () -> connection.awaitingDone() == 0);
		assertThat(connection.stats().doneReceived()).isEqualTo(1);
	}

	@Test
	void anRdmaMsgpCallIsDecodedSkippingThePaddingBeforeItsLargeOpaque() throws Exception {
		RpcRdmaServer server = echoServer(v1Only());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		// RFC 5666 §3.9 and §4.3: the opaque's data is padded from stream position 80 to 128,
		// the next multiple of rdma_align = 64, because its length 32 is at least rdma_thresh 16.
		raw.send(io.rpcrdma.xdr.Hex.buffer("""
				00000022 00000001 00000001 00000002   /* xid, vers 1, credits 1, RDMA_MSGP */
				00000040 00000010                     /* rdma_align 64, rdma_thresh 16 */
				00000000 00000000 00000000            /* no read, write or reply chunks; 36 bytes */
				00000022 00000000 00000002 20000099 00000001 00000001  /* CALL ECHO */
				00000000 00000000 00000000 00000000   /* AUTH_NONE, AUTH_NONE: 76 bytes */
				00000020                              /* opaque<> of 32 bytes */
				00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
				00000000 00000000 00000000 00000000   /* 48 pad bytes up to 128 */
				01020304 05060708 090a0b0c 0d0e0f10 11121314 15161718 191a1b1c 1d1e1f20
				"""));

		ByteBuffer reply = raw.receive();

		assertThat(header(reply)).isEqualTo(new RdmaMsg(0x22, 1, ChunkLists.EMPTY));
		io.rpcrdma.xdr.XdrDecoder decoder = new io.rpcrdma.xdr.XdrDecoder(payload(reply));
		assertThat(io.rpcrdma.oncrpc.RpcMessageCodec.decodeReply(decoder).isSuccess()).isTrue();
		assertThat(io.rpcrdma.xdr.Hex.spaced(decoder.readOpaqueBytes(64)))
			.isEqualTo("01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f 20");
	}

	@Test
	void anRdmaMsgpAlignmentBeyondTheReceiveBufferIsRefusedRatherThanMisread() throws Exception {
		RpcRdmaServer server = echoServer(v1Only());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsgp(0x23, 1, 1 << 20, 16, ChunkLists.EMPTY),
				RpcWorkload.call(0x23, RpcWorkload.ECHO, new byte[32]));

		TransportHeader reply = header(raw.receive());

		assertThat(reply).isInstanceOf(RdmaErrChunk.class);
		assertThat(reply.xid()).isEqualTo(0x23);
	}

	@Test
	void anRdmaMsgpReplyIsDecodedSkippingThePaddingBeforeItsLargeOpaque() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		io.rpcrdma.verbs.RdmaListener listener = RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY,
				deadline(), accepted);
		closeAfterTest(listener::close);
		RpcRdmaClientConnection client = RpcRdmaClientConnection
			.connect(this.clientProvider, this.clientPool, listener.localAddress(), v1Only(), this.versionCache)
			.get(deadline().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
		closeAfterTest(client);
		RawPeer server = accepted.get(deadline().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
		CompletableFuture<InboundReply> call = client.call(RpcWorkload.echo(0x31, new byte[4], false, 0, 0));
		assertThat(header(server.receive()).xid()).isEqualTo(0x31);
		// RFC 5666 §3.9 and §4.3: an RFC 5666 responder pads the result's data from stream
		// position 64 to 128, the next multiple of rdma_align = 128 (its length 32 is at least
		// rdma_thresh 16).
		server.send(io.rpcrdma.xdr.Hex.buffer("""
				00000031 00000001 00000001 00000002   /* xid, vers 1, credits 1, RDMA_MSGP */
				00000080 00000010                     /* rdma_align 128, rdma_thresh 16 */
				00000000 00000000 00000000            /* no read, write or reply chunks; 36 bytes */
				00000031 00000001 00000000            /* REPLY, MSG_ACCEPTED */
				00000000 00000000 00000000            /* AUTH_NONE verifier, SUCCESS: 60 bytes */
				00000020                              /* opaque<> of 32 bytes, data at 64 */
				00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
				00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
				                                      /* 64 pad bytes up to 128 */
				01020304 05060708 090a0b0c 0d0e0f10 11121314 15161718 191a1b1c 1d1e1f20
				"""));

		InboundReply reply = await(call);

		assertThat(reply.padding()).isNotNull();
		io.rpcrdma.xdr.XdrDecoder decoder = new io.rpcrdma.xdr.XdrDecoder(reply.message())
			.withOpaquePadding(reply.padding());
		assertThat(io.rpcrdma.oncrpc.RpcMessageCodec.decodeReply(decoder).isSuccess()).isTrue();
		assertThat(io.rpcrdma.xdr.Hex.spaced(decoder.readOpaqueBytes(64)))
			.isEqualTo("01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f 20");
		assertThat(client.credits().outstanding()).isZero();
	}

}
