package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.Rdma2ErrBadHeader;
import io.rpcrdma.protocol.Rdma2ErrInvalOption;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.Rdma2Optional;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RdmaSegment;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.WriteChunk;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * RDMA_ERROR in both directions (RFC 5666 §4.2, RFC 8166 §4.5, draft §3.1 and §4.2).
 */
abstract class ErrorTests extends RpcRdmaTransportKit {

	private static ByteBuffer malformed(int xid, int version) {
		ByteBuffer message = ByteBuffer.allocate(64);
		// RDMA_MSG whose read list discriminator is 7: not an XDR boolean.
		new XdrEncoder(message).writeInt(xid).writeInt(version).writeInt(4).writeInt(RpcRdmaConstants.RDMA_MSG).writeInt(7);
		return message.flip();
	}

	@Test
	void aMalformedVersion1HeaderGetsErrChunk() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(malformed(0x51, 1));
		TransportHeader reply = header(raw.receive());
		assertThat(reply).isInstanceOf(RdmaErrChunk.class);
		assertThat(reply.xid()).isEqualTo(0x51);
		assertThat(reply.credits()).isPositive();
		assertThat(onlyConnection(server).stats().rdmaErrorsSentByCode()).isEqualTo(new RdmaErrorCounts(0, 1, 0, 0));
		assertThat(onlyConnection(server).stats().rdmaErrorsSent()).isEqualTo(1);
	}

	@Test
	void aMalformedVersion2HeaderGetsBadHeader() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(malformed(0x52, 2));
		TransportHeader reply = header(raw.receive());
		assertThat(reply).isInstanceOf(Rdma2ErrBadHeader.class);
		assertThat(reply.xid()).isEqualTo(0x52);
		assertThat(reply.credits()).isPositive();
		assertThat(onlyConnection(server).stats().rdmaErrorsSentByCode()).isEqualTo(new RdmaErrorCounts(0, 0, 1, 0));
	}

	@Test
	void anUnknownOptionalTypeGetsInvalOption() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new Rdma2Optional(0x53, 1, 0x4242, new byte[] { 1, 2, 3 }), null);
		assertThat(header(raw.receive())).isInstanceOf(Rdma2ErrInvalOption.class).extracting(TransportHeader::xid)
			.isEqualTo(0x53);
	}

	@Test
	void aReplyThatFitsNowhereBecomesAnRdmaErrorForTheClient() throws Exception {
		RpcRdmaServer server = server(config(), (call, replier) -> {
			if (call.xid() == 6) {
				replier.reply(
						OutboundReply.inline(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(9000, 1), true).message()));
			}
			else {
				RpcWorkload.serve(call, replier);
			}
		});
		RpcRdmaClientConnection client = client(server, config());

		Throwable failure = failure(client.call(RpcWorkload.generate(6, 9000, 0, 0)));

		// RFC 8166 §4.5.3: refused at once, and the requester knows why.
		assertThat(failure).isInstanceOf(ReplyTooLargeException.class)
			.hasMessageContaining("at most 4096 bytes inline")
			.hasMessageContaining("no Reply chunk")
			.hasMessageContaining("maxReplySize");
		assertThat(((RdmaErrorReceivedException) failure).error()).isInstanceOf(Rdma2ErrBadHeader.class);
		// The connection is still usable.
		await(client.call(RpcWorkload.echo(7, new byte[4], false, 0, 0)));
	}

	@Test
	void aReplyLargerThanTheOfferedReplyChunkFailsThatCallWithReplyTooLarge() throws Exception {
		RpcRdmaServer server = server(v1Only(), (call, replier) -> replier
			.reply(OutboundReply.inline(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(9000, 1), true).message())));
		RpcRdmaClientConnection client = client(server, v1Only());

		Throwable failure = failure(client.call(RpcWorkload.generate(8, 9000, 0, 5000)));

		assertThat(failure).isInstanceOf(ReplyTooLargeException.class)
			.hasMessageContaining("a Reply chunk of only 5000 bytes")
			.hasMessageContaining("at most 1024 bytes inline");
		assertThat(((ReplyTooLargeException) failure).error()).isInstanceOf(RdmaErrChunk.class);
		assertThat(((ReplyTooLargeException) failure).replyChunkOffered()).isEqualTo(5000);
		assertThat(client.credits().outstanding()).isZero();
		eventually("the server settled the call", () -> onlyConnection(server).outstanding() == 0);
	}

	@Test
	void aResponderThatKnowsTheReplyWillNotFitRefusesItAtOnce() throws Exception {
		CompletableFuture<CompletableFuture<Void>> refused = new CompletableFuture<>();
		RpcRdmaServer server = server(config(), (call, replier) -> refused.complete(replier.replyTooLarge(1 << 20)));
		RpcRdmaClientConnection client = client(server, config());

		Throwable failure = failure(client.call(RpcWorkload.generate(9, 1 << 20, 0, 0)));

		assertThat(failure).isInstanceOf(ReplyTooLargeException.class);
		await(await(refused));
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.outstanding()).isZero();
		assertThat(connection.stats().rdmaErrorsSent()).isEqualTo(1);
	}

	@Test
	void errChunkForACallWithReadChunksIsNotTakenForAnOversizeReply() throws Exception {
		RpcRdmaServer server = server(config(), (call, replier) -> replier.replyTooLarge(1 << 20));
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(5000, 2);

		// The responder may have refused the Read chunk itself: the requester cannot tell.
		Throwable failure = failure(client.call(RpcWorkload.echo(10, data, true, 0, 0)));

		assertThat(failure).isInstanceOf(RdmaErrorReceivedException.class).isNotInstanceOf(ReplyTooLargeException.class);
	}

	// ---- the client's side ----------------------------------------------------------------

	private RpcRdmaClientConnection clientOfRawServer(TransportConfig config, CompletableFuture<RawPeer> accepted)
			throws Exception {
		RdmaListener listener = RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY, deadline(),
				accepted);
		RpcRdmaClientConnection client = RpcRdmaClientConnection
			.connect(this.clientProvider, this.clientPool, listener.localAddress(), config, this.versionCache)
			.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		return client;
	}

	private void callAnsweredWith(TransportConfig config, java.util.function.IntFunction<TransportHeader> answer,
			Class<? extends RdmaErrorHeader> expected) throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(config, accepted);
		try {
			RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			CompletableFuture<InboundReply> call = client.call(RpcWorkload.echo(0x77, new byte[4], false, 0, 0));
			TransportHeader received = header(server.receive());
			assertThat(received.xid()).isEqualTo(0x77);
			server.send(answer.apply(received.xid()), null);

			Throwable failure = failure(call);
			assertThat(failure).isInstanceOf(RdmaErrorReceivedException.class);
			assertThat(((RdmaErrorReceivedException) failure).error()).isInstanceOf(expected);
			assertThat(client.stats().rdmaErrorsReceivedByCode())
				.isEqualTo(RdmaErrorCounts.of((RdmaErrorHeader) answer.apply(0x77)));
			assertThat(client.stats().rdmaErrorsReceived()).isEqualTo(1);
			assertThat(client.credits().outstanding()).isZero();
			// Only a non-error message reports the credit limit (draft §5).
			assertThat(client.credits().limit()).isEqualTo(1);
		}
		finally {
			client.close();
		}
	}

	@Test
	void errChunkFromTheServerFailsTheMatchingCall() throws Exception {
		callAnsweredWith(v1Only(), (xid) -> new RdmaErrChunk(xid, 5), RdmaErrChunk.class);
	}

	@Test
	void badHeaderFromTheServerFailsTheMatchingCall() throws Exception {
		callAnsweredWith(config(), (xid) -> new Rdma2ErrBadHeader(xid, 5), Rdma2ErrBadHeader.class);
	}

	@Test
	void invalOptionFromTheServerFailsTheMatchingCall() throws Exception {
		callAnsweredWith(config(), (xid) -> new Rdma2ErrInvalOption(xid, 5), Rdma2ErrInvalOption.class);
	}

	@Test
	void theClientAnswersAnUnknownOptionalWithInvalOption() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(config(), accepted);
		try {
			RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			server.send(new Rdma2Optional(0x31, 1, 0x99, new byte[0]), null);
			assertThat(header(server.receive())).isEqualTo(new Rdma2ErrInvalOption(0x31, 8));
			assertThat(client.stats().rdmaErrorsSentByCode()).isEqualTo(new RdmaErrorCounts(0, 0, 0, 1));
		}
		finally {
			client.close();
		}
	}

	@Test
	void aReplyClaimingMoreWriteChunkDataThanOfferedFailsTheCall() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(config(), accepted);
		try {
			RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			CompletableFuture<InboundReply> call = client.call(RpcWorkload.generate(0x41, 100, 128, 0));
			Rdma2Msg received = (Rdma2Msg) header(server.receive());
			RdmaSegment offered = received.chunkLists().writeList().get(0).segments().get(0);
			WriteChunk inflated = WriteChunk.of(new RdmaSegment(offered.handle(), 4096, offered.offset()));
			server.send(new Rdma2Msg(0x41, 1, new ChunkLists(List.of(), List.of(inflated), null)),
					RpcWorkload.reply(0x41, new byte[0], false).message());

			assertThat(failure(call)).isInstanceOf(ChunkValidationException.class).hasMessageContaining("Write chunk");
		}
		finally {
			client.close();
		}
	}

	@Test
	void aMalformedReplyFailsTheMatchingCallInsteadOfHangingIt() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(v1Only(), accepted);
		try {
			RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			CompletableFuture<InboundReply> call = client.call(RpcWorkload.echo(0x42, new byte[4], false, 0, 0));
			server.receive();
			server.send(malformed(0x42, 1));
			assertThat(failure(call)).isInstanceOf(ChunkValidationException.class);
			// A reply for an XID nobody asked about is dropped.
			server.send(new RdmaMsg(0x43, 1, ChunkLists.EMPTY), RpcWorkload.reply(0x43, new byte[0], false).message());
			assertThat(client.isOpen()).isTrue();
		}
		finally {
			client.close();
		}
	}

	@Test
	void readChunkStagsStopWorkingOnceTheCallCompletes() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(config(), accepted);
		try {
			RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			byte[] data = RpcWorkload.pattern(2000, 1);
			CompletableFuture<InboundReply> call = client.call(RpcWorkload.echo(0x44, data, true, 0, 0));
			Rdma2Msg received = (Rdma2Msg) header(server.receive());
			RdmaSegment chunk = received.chunkLists().readList().get(0).target();
			io.rpcrdma.verbs.RemoteAddress source = new io.rpcrdma.verbs.RemoteAddress(chunk.offset(), chunk.handle());
			assertThat(server.read(source, chunk.length())).isEqualTo(io.rpcrdma.verbs.CompletionStatus.SUCCESS);
			server.send(new Rdma2Msg(0x44, 1, ChunkLists.EMPTY), RpcWorkload.reply(0x44, new byte[0], false).message());
			await(call);

			assertThat(server.read(source, chunk.length())).isNotEqualTo(io.rpcrdma.verbs.CompletionStatus.SUCCESS);
		}
		finally {
			client.close();
		}
	}

	@Test
	void writeChunkStagsStopWorkingOnceTheCallCompletes() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RpcRdmaClientConnection client = clientOfRawServer(config(), accepted);
		try {
			RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			CompletableFuture<InboundReply> call = client.call(RpcWorkload.generate(0x45, 100, 128, 0));
			Rdma2Msg received = (Rdma2Msg) header(server.receive());
			RdmaSegment chunk = received.chunkLists().writeList().get(0).segments().get(0);
			server.send(new Rdma2Msg(0x45, 1, new ChunkLists(List.of(), List.of(new WriteChunk(List.of())), null)),
					RpcWorkload.reply(0x45, new byte[0], false).message());
			await(call);

			io.rpcrdma.verbs.MemoryRegion source = server.region(64);
			server.endpoint.qp.postSend(io.rpcrdma.verbs.SendWorkRequest.rdmaWrite(5,
					new io.rpcrdma.verbs.RemoteAddress(chunk.offset(), chunk.handle()),
					io.rpcrdma.verbs.ScatterGatherEntry.of(source)));
			io.rpcrdma.verbs.CompletionStatus written = server.endpoint.sends.next().status();
			if (server.endpoint.provider.capabilities().remoteErrorsAtInitiator()) {
				assertThat(written).isNotEqualTo(io.rpcrdma.verbs.CompletionStatus.SUCCESS);
			}
			else {
				// iWARP (siw, as Linux's siw): the Write completes once the socket took it; the
				// client refuses it with a Terminate, which fails the connection (RFC 5040 §7).
				server.endpoint.events.await(io.rpcrdma.verbs.ConnectionEventType.DISCONNECTED);
				assertThat(server.endpoint.qp.state()).isEqualTo(io.rpcrdma.verbs.QueuePairState.ERROR);
			}
		}
		finally {
			client.close();
		}
	}

}
