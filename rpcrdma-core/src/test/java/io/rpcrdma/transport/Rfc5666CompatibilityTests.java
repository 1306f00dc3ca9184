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
	void anRdmaMsgpCallPaddedBeyondXdrAlignmentIsRefusedRatherThanMisread() throws Exception {
		RpcRdmaServer server = echoServer(v1Only());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsgp(0x22, 1, 64, 16, ChunkLists.EMPTY),
				RpcWorkload.call(0x22, RpcWorkload.ECHO, new byte[32]));

		TransportHeader reply = header(raw.receive());

		assertThat(reply).isInstanceOf(RdmaErrChunk.class);
		assertThat(reply.xid()).isEqualTo(0x22);
	}

}
