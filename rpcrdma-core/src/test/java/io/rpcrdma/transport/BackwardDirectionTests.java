package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * The backward direction (RFC 8167) at the transport, against a raw peer that sends exactly
 * the bytes a test wants: how a requester tells a backward call from a reply, what it grants
 * and answers, how it treats a responder that breaks the rules, and how a responder takes
 * backward replies apart from forward calls.
 */
abstract class BackwardDirectionTests extends RpcRdmaTransportKit {

	private static final int GRANT = 2;

	// ---- the requester's side ----------------------------------------------------------

	@Test
	void aBackwardCallReachesTheHandlerAndItsReplyCarriesTheGrant() throws Exception {
		List<BackwardCall> calls = new CopyOnWriteArrayList<>();
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer((call) -> {
			calls.add(call);
			call.reply(RpcWorkload.call(call.xid(), 0, new byte[0]).putInt(4, BackwardDirection.REPLY));
		}, accepted);
		RawPeer server = await(accepted);

		server.send(new RdmaMsg(0x0b0b_0001, 4, ChunkLists.EMPTY), RpcWorkload.call(0x0b0b_0001, 1, new byte[] { 7 }));
		ByteBuffer reply = server.receive();

		TransportHeader header = header(reply);
		assertThat(header).isInstanceOf(RdmaMsg.class);
		assertThat(header.xid()).isEqualTo(0x0b0b_0001);
		assertThat(header.credits()).as("the backward-direction grant (RFC 8167 §4.1)").isEqualTo(GRANT);
		assertThat(payload(reply).getInt(4)).as("msg_type").isEqualTo(BackwardDirection.REPLY);
		assertThat(calls).hasSize(1);
		assertThat(calls.get(0).message().getInt(0)).isEqualTo(0x0b0b_0001);
		assertThat(client.backwardCallsReceived()).isEqualTo(1);
		assertThat(client.backwardCallsOutstanding()).isZero();
		assertThat(client.isOpen()).isTrue();
	}

	@Test
	void aRequesterThatServesNothingAnswersProgUnavailWithOneCredit() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(null, accepted);
		RawPeer server = await(accepted);

		server.send(new RdmaMsg(0x0b0b_0002, 4, ChunkLists.EMPTY), RpcWorkload.call(0x0b0b_0002, 1, new byte[0]));
		ByteBuffer reply = server.receive();

		assertThat(header(reply).credits()).isEqualTo(1);
		RpcReply decoded = RpcMessageCodec.decodeReply(new XdrDecoder(payload(reply)));
		assertThat(decoded.xid()).isEqualTo(0x0b0b_0002);
		assertThat(decoded.body()).isInstanceOfSatisfying(AcceptedReply.class,
				(body) -> assertThat(body.status()).isEqualTo(AcceptStatus.PROG_UNAVAIL));
		assertThat(client.isOpen()).isTrue();
	}

	@Test
	void aResponderBeyondTheBackwardGrantIsDisconnected() throws Exception {
		List<BackwardCall> held = new CopyOnWriteArrayList<>();
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(held::add, accepted);
		RawPeer server = await(accepted);

		for (int i = 0; i <= GRANT; i++) {
			server.send(new RdmaMsg(0x0c00 + i, 4, ChunkLists.EMPTY), RpcWorkload.call(0x0c00 + i, 1, new byte[0]));
		}

		server.awaitDisconnected();
		await(client.closeFuture());
		assertThat(held).hasSize(GRANT);
		assertThat(client.failure()).isNotNull();
		assertThat(client.failure().getMessage()).contains("more than the " + GRANT + " credits granted")
			.contains("RFC 8167");
	}

	@Test
	void aBackwardCallWithChunksIsRefusedWithRdmaErrorAndNotServed() throws Exception {
		List<BackwardCall> calls = new CopyOnWriteArrayList<>();
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(calls::add, accepted);
		RawPeer server = await(accepted);
		ChunkLists withWriteChunk = new ChunkLists(List.of(),
				List.of(WriteChunk.of(new RdmaSegment(0x1234, 4096, 0x10000))), null);

		server.send(new RdmaMsg(0x0b0b_0003, 4, withWriteChunk), RpcWorkload.call(0x0b0b_0003, 1, new byte[0]));
		TransportHeader answer = header(server.receive());

		assertThat(answer).isInstanceOf(RdmaErrChunk.class);
		assertThat(answer.xid()).isEqualTo(0x0b0b_0003);
		assertThat(calls).isEmpty();
		assertThat(client.isOpen()).isTrue();
	}

	@Test
	void aBackwardCallWithTheXidOfAPendingForwardCallLeavesThatCallAlone() throws Exception {
		List<BackwardCall> calls = new CopyOnWriteArrayList<>();
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer((call) -> {
			calls.add(call);
			call.drop();
		}, accepted);
		RawPeer server = await(accepted);
		CompletableFuture<InboundReply> forward = client.call(RpcWorkload.echo(0x77, new byte[] { 1, 2, 3 }, false, 0, 0));
		TransportHeader call = header(server.receive());
		assertThat(call.xid()).isEqualTo(0x77);

		// The XID spaces of the two directions are apart (RFC 8167 §5): msg_type decides.
		server.send(new RdmaMsg(0x77, 4, ChunkLists.EMPTY), RpcWorkload.call(0x77, 1, new byte[0]));
		ByteBuffer forwardReply = RpcWorkload.call(0x77, 1, new byte[] { 1, 2, 3 }).putInt(4, BackwardDirection.REPLY);
		assertThat(forward).isNotDone();
		server.send(new RdmaMsg(0x77, 4, ChunkLists.EMPTY), forwardReply);

		InboundReply reply = await(forward);
		assertThat(reply.xid()).isEqualTo(0x77);
		assertThat(calls).hasSize(1);
		assertThat(calls.get(0).xid()).isEqualTo(0x77);
		assertThat(client.backwardCallsOutstanding()).isZero();
	}

	// ---- the responder's side ----------------------------------------------------------

	@Test
	void anUnaskedReplyToTheResponderTakesNoCreditAndBreaksNothing() throws Exception {
		RpcRdmaServer server = backwardServer();
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		ByteBuffer reply = RpcWorkload.call(0x99, 1, new byte[0]).putInt(4, BackwardDirection.REPLY);

		raw.send(new RdmaMsg(0x99, 8, ChunkLists.EMPTY), reply);
		raw.send(new RdmaMsg(0x9a, 8, ChunkLists.EMPTY), RpcWorkload.call(0x9a, RpcWorkload.ECHO, new byte[] { 5 }));

		TransportHeader answer = header(raw.receive());
		assertThat(answer.xid()).isEqualTo(0x9a);
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.outstanding()).isZero();
		assertThat(connection.creditViolations()).isZero();
		assertThat(connection.backwardCalls().orElseThrow().unmatchedReplies()).isEqualTo(1);
	}

	@Test
	void aBackwardCallLargerThanTheRequesterReceivesFailsWithoutBeingSent() throws Exception {
		RpcRdmaServer server = backwardServer();
		RpcRdmaClientConnection client = client(server, config());
		await(client.call(RpcWorkload.echo(1, new byte[4], false, 0, 0)));
		BackwardCalls backward = onlyConnection(server).backwardCalls().orElseThrow();

		Throwable failure = failure(backward.call(OutboundCall.inline(RpcWorkload.call(0x55, 1, new byte[8192]))));

		assertThat(failure).isInstanceOf(MessageTooLargeException.class).hasMessageContaining("RFC 8167 §4.2");
		assertThat(backward.sentCalls()).isZero();
		assertThat(backward.pendingCalls()).isZero();
	}

	@Test
	void backwardCallsBeforeTheFirstForwardCallSayWhy() throws Exception {
		RpcRdmaServer server = backwardServer();
		rawClient(server, PrivateData.EMPTY);
		eventually("the connection is accepted", () -> server.connections().size() == 1);
		BackwardCalls backward = onlyConnection(server).backwardCalls().orElseThrow();

		Throwable failure = failure(backward.call(OutboundCall.inline(RpcWorkload.call(0x56, 1, new byte[4]))));

		assertThat(failure).isInstanceOf(TransportException.class).hasMessageContaining("no call yet");
	}

	@Test
	void aServerWithoutBackwardCreditsHasNoBackwardDirection() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		await(client.call(RpcWorkload.echo(1, new byte[4], false, 0, 0)));

		assertThat(onlyConnection(server).backwardCalls()).isEmpty();
	}

	private RpcRdmaServer backwardServer() {
		RpcRdmaServer server = RpcRdmaServer.listen(this.serverProvider, this.serverPool, listenAddress(), config(),
				CreditBudget.unlimited(), this.executor, RpcWorkload::serve, 4);
		return closeAfterTest(server);
	}

	private RpcRdmaClientConnection clientOfRawServer(BackwardCallHandler handler, CompletableFuture<RawPeer> accepted)
			throws Exception {
		RdmaListener listener = RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY, deadline(),
				accepted);
		closeAfterTest(listener);
		RpcRdmaClientConnection client = RpcRdmaClientConnection
			.connect(this.clientProvider, this.clientPool, listener.localAddress(), v1Only(), this.versionCache, handler,
					GRANT)
			.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		return closeAfterTest(client);
	}

}
