package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.ErrVers;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Version negotiation (RFC 5666 §4.2, draft-cel-nfsv4-rpcrdma-version-two §5).
 */
abstract class VersionTests extends RpcRdmaTransportKit {

	@Test
	void aVersion2ClientFallsBackToVersion1AgainstAVersion1OnlyServerAndRemembersIt() throws Exception {
		RpcRdmaServer server = echoServer(v1Only());
		RpcRdmaClientConnection client = client(server, config());
		assertThat(client.version()).isEqualTo(2);

		InboundReply reply = await(client.call(RpcWorkload.echo(1, RpcWorkload.pattern(100, 1), false, 0, 0)));

		assertThat(reply.version()).isEqualTo(1);
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(100, 1));
		assertThat(client.version()).isEqualTo(1);
		assertThat(client.stats().rdmaErrorsReceived()).isEqualTo(1);
		assertThat(this.versionCache.get(server.localAddress())).isEqualTo(1);
		client.close();

		RpcRdmaClientConnection again = client(server, config());
		assertThat(again.version()).isEqualTo(1);
		await(again.call(RpcWorkload.echo(2, new byte[8], false, 0, 0)));
		assertThat(again.stats().rdmaErrorsReceived()).isZero();
	}

	@Test
	void aVersion2ServerAnswersAVersion1ClientInVersion1() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, v1Only());

		InboundReply reply = await(client.call(RpcWorkload.echo(3, new byte[16], false, 0, 0)));

		assertThat(reply.version()).isEqualTo(1);
		assertThat(client.stats().rdmaErrorsReceived()).isZero();
	}

	@Test
	void theFirstVersion2CallIsAtMost1024BytesThenTheNegotiatedThresholdApplies() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(2000, 1);

		await(client.call(RpcWorkload.echo(1, data, false, 0, 0)));
		assertThat(client.stats().positionZeroChunksSent()).as("first call went as a long call").isEqualTo(1);
		assertThat(client.stats().inlineMessages()).isZero();

		await(client.call(RpcWorkload.echo(2, data, false, 0, 0)));
		assertThat(client.stats().inlineMessages()).as("second call went inline").isEqualTo(1);
	}

	@Test
	void noCommonVersionFailsTheCallWithVersionNegotiationException() throws Exception {
		RpcRdmaServer server = echoServer(config().withVersions(new VersionRange(2, 2), 2));
		RpcRdmaClientConnection client = client(server, v1Only());

		assertFails(client.call(RpcWorkload.echo(4, new byte[4], false, 0, 0)), VersionNegotiationException.class);
	}

	@Test
	void anUnknownVersionGetsErrVersWithTheServersRange() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		java.nio.ByteBuffer message = java.nio.ByteBuffer.allocate(64);
		new XdrEncoder(message).writeInt(0x99).writeInt(7).writeInt(1).writeInt(RpcRdmaConstants.RDMA_MSG);
		message.put(RpcWorkload.call(0x99, 1, new byte[4])).flip();
		raw.send(message);

		TransportHeader reply = header(raw.receive());

		assertThat(reply).isInstanceOf(ErrVers.class);
		ErrVers errVers = (ErrVers) reply;
		assertThat(errVers.xid()).isEqualTo(0x99);
		assertThat(errVers.low()).isEqualTo(1);
		assertThat(errVers.high()).isEqualTo(2);
		assertThat(onlyConnection(server).stats().rdmaErrorsSentByCode()).isEqualTo(new RdmaErrorCounts(1, 0, 0, 0));
	}

	@Test
	void aVersion1OnlyServerAnswersAVersion2CallWithErrVersOneToOne() throws Exception {
		RpcRdmaServer server = echoServer(v1Only());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new io.rpcrdma.protocol.Rdma2Msg(5, 1, ChunkLists.EMPTY), RpcWorkload.call(5, 1, new byte[4]));

		ErrVers reply = (ErrVers) header(raw.receive());

		assertThat(reply.supported()).isEqualTo(VersionRange.VERSION_1_ONLY);
		assertThat(reply.version()).isEqualTo(1);
		// The same requester may go on in Version 1.
		raw.send(new RdmaMsg(6, 1, ChunkLists.EMPTY), RpcWorkload.call(6, 1, new byte[4]));
		assertThat(header(raw.receive())).isInstanceOf(RdmaMsg.class);
	}

	@Test
	void withoutPrivateDataAVersion2PeerIsAssumedToReceive4096Bytes() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		byte[] data = RpcWorkload.pattern(3500, 4);
		raw.send(new io.rpcrdma.protocol.Rdma2Msg(8, 4, ChunkLists.EMPTY), RpcWorkload.call(8, RpcWorkload.ECHO, data));

		java.nio.ByteBuffer reply = raw.receive();

		assertThat(header(reply)).isInstanceOf(io.rpcrdma.protocol.Rdma2Msg.class);
		assertThat(reply.remaining()).isGreaterThan(3500).isLessThanOrEqualTo(4096);
	}

	@Test
	void aVersion1PeerWithoutPrivateDataIsSentAtMost1024BytesInline() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsg(9, 4, ChunkLists.EMPTY), RpcWorkload.call(9, RpcWorkload.ECHO, RpcWorkload.pattern(1500, 4)));

		// The reply does not fit 1024 bytes and no Reply chunk was offered: RDMA_ERROR.
		assertThat(header(raw.receive())).isInstanceOf(io.rpcrdma.protocol.RdmaErrChunk.class);
	}

	@Test
	void aLostFirstVersion2MessageMakesTheReconnectStartWithVersion1() throws Exception {
		java.util.concurrent.CompletableFuture<RawPeer> accepted = new java.util.concurrent.CompletableFuture<>();
		io.rpcrdma.verbs.RdmaListener listener = RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY,
				deadline(), accepted);
		try {
			RpcRdmaClientConnection client = RpcRdmaClientConnection
				.connect(this.clientProvider, this.clientPool, listener.localAddress(), config(), this.versionCache)
				.get(deadline().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
			RawPeer server = accepted.get(deadline().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
			java.util.concurrent.CompletableFuture<InboundReply> call = client
				.call(RpcWorkload.echo(1, new byte[4], false, 0, 0));
			assertThat(header(server.receive()).version()).isEqualTo(2);
			server.close();

			assertFails(call, TransportClosedException.class);
			assertThat(this.versionCache.get(listener.localAddress())).isEqualTo(1);
		}
		finally {
			listener.close();
		}
	}

}
