package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.ccp.ConfigRdmaProgram;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The in-band Connection Configuration Protocol (RFC 5666 §6), which raises the inline
 * thresholds where RFC 8797 private data cannot: here the private data is switched off, as a
 * DiSNI provider would have it.
 */
abstract class InBandConfigurationTests extends RpcRdmaTransportKit {

	/** Version 1, 4 KiB receive buffers both sides, no private data, CCP when needed. */
	static TransportConfig withoutPrivateData() {
		return v1Only().withInlineThresholds(4096, 4096)
			.withConnectionConfiguration(false, CcpMode.WHEN_NEEDED, Duration.ofSeconds(30));
	}

	@Test
	void ccpRaisesTheInlineThresholdsSoA3KibCallAndReplyGoInline() throws Exception {
		RpcRdmaServer server = echoServer(withoutPrivateData());
		RpcRdmaClientConnection client = client(server, withoutPrivateData());

		assertThat(client.negotiatedInBand()).isTrue();
		assertThat(client.inlineSizes().sendThreshold(1)).isEqualTo(4096);
		byte[] data = RpcWorkload.pattern(3072, 9);
		InboundReply reply = await(client.call(RpcWorkload.echo(5, data, false, 0, 0)));

		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(data);
		// The CONF_RDMA call and the echo call, both inline.
		assertThat(client.stats().inlineMessages()).isEqualTo(2);
		assertThat(client.stats().positionZeroChunksSent()).isZero();
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.negotiatedInBand()).isTrue();
		assertThat(connection.stats().replyChunksFilled()).isZero();
		assertThat(connection.stats().inlineMessages()).isEqualTo(2);
	}

	@Test
	void withoutCcpTheSame3KibCallNeedsAPositionZeroReadChunkUnderTheVersion1Default() throws Exception {
		RpcRdmaServer server = echoServer(withoutPrivateData());
		RpcRdmaClientConnection client = client(server,
				withoutPrivateData().withConnectionConfiguration(false, CcpMode.DISABLED, Duration.ofSeconds(1)));

		assertThat(client.negotiatedInBand()).isFalse();
		assertThat(client.inlineSizes().sendThreshold(1)).isEqualTo(1024);
		byte[] data = RpcWorkload.pattern(3072, 9);
		InboundReply reply = await(client.call(RpcWorkload.echo(5, data, false, 0, 3200)));

		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(data);
		assertThat(client.stats().positionZeroChunksSent()).isEqualTo(1);
		assertThat(onlyConnection(server).stats().replyChunksFilled()).isEqualTo(1);
	}

	@Test
	void ccpRunsInVersion2Too() throws Exception {
		TransportConfig config = config().withConnectionConfiguration(false, CcpMode.WHEN_NEEDED, Duration.ofSeconds(30));
		RpcRdmaServer server = echoServer(config);
		RpcRdmaClientConnection client = client(server, config);

		assertThat(client.negotiatedInBand()).isTrue();
		assertThat(client.version()).isEqualTo(2);
		assertThat(client.isVersionConfirmed()).isTrue();
		assertThat(client.inlineSizes().sendThreshold(2)).isEqualTo(4096);
		byte[] data = RpcWorkload.pattern(3500, 4);
		assertThat(RpcWorkload.opaqueResult(await(client.call(RpcWorkload.echo(6, data, false, 0, 0))))).isEqualTo(data);
		assertThat(client.stats().positionZeroChunksSent()).isZero();
	}

	@Test
	void aResponderThatDropsTheCcpCallIsGivenUpOnAfterTheCcpTimeout() throws Exception {
		// The workload handler fails on a CONF_RDMA call and drops it without a reply.
		RpcRdmaServer server = echoServer(withoutPrivateData().withConnectionConfiguration(false, CcpMode.DISABLED,
				Duration.ofSeconds(1)));
		RpcRdmaClientConnection client = client(server,
				withoutPrivateData().withConnectionConfiguration(false, CcpMode.WHEN_NEEDED, Duration.ofMillis(300)));

		assertThat(client.negotiatedInBand()).isFalse();
		assertThat(client.inlineSizes().sendThreshold(1)).isEqualTo(1024);
		assertThat(client.credits().outstanding()).isZero();
		byte[] data = RpcWorkload.pattern(500, 1);
		assertThat(RpcWorkload.opaqueResult(await(client.call(RpcWorkload.echo(7, data, false, 0, 0))))).isEqualTo(data);
	}

	@Test
	void aResponderAnsweringProgUnavailKeepsTheDefaultsWithoutWaitingForTheTimeout() throws Exception {
		RpcRdmaServer server = server(
				withoutPrivateData().withConnectionConfiguration(false, CcpMode.DISABLED, Duration.ofSeconds(1)),
				(call, replier) -> {
					RpcCall rpc = RpcMessageCodec.decodeCall(new XdrDecoder(call.message().duplicate()));
					if (rpc.program() != RpcWorkload.PROGRAM) {
						replier.reply(OutboundReply.inline(encode(RpcReply.progUnavail(rpc.xid()))));
						return;
					}
					RpcWorkload.serve(call, replier);
				});
		// A CCP wait far beyond the test's deadline: only a prompt fallback lets connect finish.
		RpcRdmaClientConnection client = client(server,
				withoutPrivateData().withConnectionConfiguration(false, CcpMode.WHEN_NEEDED, Duration.ofHours(1)));

		assertThat(client.negotiatedInBand()).isFalse();
		assertThat(client.inlineSizes().sendThreshold(1)).isEqualTo(1024);
		assertThat(onlyConnection(server).negotiatedInBand()).isFalse();
	}

	@Test
	void privateDataMakesCcpUnnecessaryWhenNeededOnly() throws Exception {
		TransportConfig config = v1Only().withInlineThresholds(4096, 4096);
		RpcRdmaServer server = echoServer(config);
		RpcRdmaClientConnection client = client(server, config);

		assertThat(client.negotiatedInBand()).isFalse();
		assertThat(client.inlineSizes().sendThreshold(1)).isEqualTo(4096);
		assertThat(client.stats().inlineMessages()).isZero();
	}

	@Test
	void hostileCcpCallsGetRpcErrorsAndLeaveTheThresholdsAlone() throws Exception {
		RpcRdmaServer server = echoServer(withoutPrivateData());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);

		// Arguments cut short after one word.
		raw.send(new RdmaMsg(1, 1, ChunkLists.EMPTY), ccpCall(1, ConfigRdmaProgram.VERSION, 1, 4096));
		assertThat(acceptStatus(raw.receive(), 1)).isInstanceOf(AcceptStatus.GarbageArgs.class);
		// A version of CCP that does not exist.
		raw.send(new RdmaMsg(2, 1, ChunkLists.EMPTY), ccpCall(2, 7, 4096, 4096, 4));
		assertThat(acceptStatus(raw.receive(), 2)).isEqualTo(new AcceptStatus.ProgMismatch(1, 1));
		// Sizes below the 1024 bytes every receiver supports.
		raw.send(new RdmaMsg(3, 1, ChunkLists.EMPTY), ccpCall(3, ConfigRdmaProgram.VERSION, 16, 0, 4));
		assertThat(acceptStatus(raw.receive(), 3)).isInstanceOf(AcceptStatus.GarbageArgs.class);
		// An unknown procedure.
		raw.send(new RdmaMsg(4, 1, ChunkLists.EMPTY), ccpCallTo(4, ConfigRdmaProgram.VERSION, 9));
		assertThat(acceptStatus(raw.receive(), 4)).isInstanceOf(AcceptStatus.ProcUnavail.class);

		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.negotiatedInBand()).isFalse();
		assertThat(connection.inlineSizes().sendThreshold(1)).isEqualTo(1024);
		assertThat(connection.isOpen()).isTrue();
		assertThat(connection.outstanding()).isZero();

		// A well-formed one is then served.
		raw.send(new RdmaMsg(5, 1, ChunkLists.EMPTY), ccpCall(5, ConfigRdmaProgram.VERSION, 4096, 4096, 4));
		ByteBuffer reply = payload(raw.receive());
		XdrDecoder decoder = new XdrDecoder(reply);
		assertThat(RpcMessageCodec.decodeReply(decoder).isSuccess()).isTrue();
		assertThat(io.rpcrdma.protocol.ccp.ConfigRdmaCodec.decodeReply(decoder))
			.isEqualTo(new ConfigRdmaReply(4096, 4, TransportConfig.DEFAULT_MAX_OUTSTANDING_READS));
		assertThat(connection.negotiatedInBand()).isTrue();
		assertThat(connection.inlineSizes().sendThreshold(1)).isEqualTo(4096);
	}

	@Test
	void aCcpReplyWithSizesBelowTheMinimumIsIgnored() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RdmaListener listener = RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY, deadline(),
				accepted);
		try {
			CompletableFuture<RpcRdmaClientConnection> connecting = RpcRdmaClientConnection.connect(this.clientProvider,
					this.clientPool, listener.localAddress(), withoutPrivateData(), this.versionCache);
			RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			ByteBuffer call = server.receive();
			int xid = header(call).xid();
			ByteBuffer reply = ByteBuffer.allocate(64);
			XdrEncoder encoder = new XdrEncoder(reply);
			RpcMessageCodec.encodeReply(RpcReply.success(xid), encoder);
			io.rpcrdma.protocol.ccp.ConfigRdmaCodec.encode(new ConfigRdmaReply(16, 4, 8), encoder);
			server.send(new RdmaMsg(xid, 4, ChunkLists.EMPTY), reply.flip());

			RpcRdmaClientConnection client = await(connecting);
			try {
				assertThat(client.negotiatedInBand()).isFalse();
				assertThat(client.inlineSizes().sendThreshold(1)).isEqualTo(1024);
				assertThat(client.credits().outstanding()).isZero();
			}
			finally {
				client.close();
				server.close();
			}
		}
		finally {
			listener.close();
		}
	}

	@Test
	void theRequestersMaxRdmaReadBoundsTheRespondersReads() throws Exception {
		RpcRdmaServer server = server(withoutPrivateData(), ConveyanceTests::digestAll);
		RpcRdmaClientConnection client = client(server, withoutPrivateData().withMaxOutstandingReads(1));
		List<CompletableFuture<InboundReply>> futures = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			futures.add(client.call(ConveyanceTests.multiChunkCall(0x700 + i, RpcWorkload.pattern(1500, i),
					RpcWorkload.pattern(2500, i + 1))));
		}
		for (CompletableFuture<InboundReply> future : futures) {
			await(future);
		}

		TransportStats stats = onlyConnection(server).stats();
		assertThat(stats.readChunksPulled()).isEqualTo(16);
		assertThat(stats.readsInFlightHighWater()).isEqualTo(1);
	}

	@Test
	void aRequesterAllowingNoRdmaReadGetsErrChunkForReadChunks() throws Exception {
		RpcRdmaServer server = server(withoutPrivateData(), ConveyanceTests::digestAll);
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsg(1, 4, ChunkLists.EMPTY), ccpCall(1, ConfigRdmaProgram.VERSION, 4096, 4096, 0));
		assertThat(acceptStatus(raw.receive(), 1)).isInstanceOf(AcceptStatus.Success.class);

		io.rpcrdma.verbs.MemoryRegion region = raw.region(64, io.rpcrdma.verbs.AccessFlag.REMOTE_READ);
		OutboundCall call = ConveyanceTests.multiChunkCall(2, new byte[64]);
		DdpRange item = call.readChunkItems().get(0);
		ByteBuffer inline = ByteBuffer.allocate(item.offset());
		inline.put(call.message().duplicate().limit(item.offset())).flip();
		raw.send(new RdmaMsg(2, 4, new ChunkLists(List.of(new io.rpcrdma.protocol.ReadSegment(item.offset(),
				region.stag(), 64, region.address())), List.of(), null)), inline);

		assertThat(header(raw.receive())).isEqualTo(new io.rpcrdma.protocol.RdmaErrChunk(2, 4));
		assertThat(onlyConnection(server).stats().readChunksPulled()).isZero();
	}

	private static ByteBuffer encode(RpcReply reply) {
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply));
		RpcMessageCodec.encodeReply(reply, new XdrEncoder(buffer));
		return buffer.flip();
	}

	private static ByteBuffer ccpCallTo(int xid, int version, int procedure) {
		RpcCall header = RpcCall.of(xid, ConfigRdmaProgram.PROGRAM, version, procedure);
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(header));
		RpcMessageCodec.encodeCall(header, new XdrEncoder(buffer));
		return buffer.flip();
	}

	/** A CONF_RDMA call with whatever argument words are given, however many. */
	private static ByteBuffer ccpCall(int xid, int version, int... words) {
		ByteBuffer head = ccpCallTo(xid, version, ConfigRdmaProgram.CONF_RDMA);
		ByteBuffer buffer = ByteBuffer.allocate(head.remaining() + 4 * words.length);
		buffer.put(head);
		for (int word : words) {
			buffer.putInt(word);
		}
		return buffer.flip();
	}

	private static AcceptStatus acceptStatus(ByteBuffer message, int xid) {
		assertThat(header(message)).isInstanceOf(RdmaMsg.class);
		RpcReply reply = RpcMessageCodec.decodeReply(new XdrDecoder(payload(message)));
		assertThat(reply.xid()).isEqualTo(xid);
		return ((AcceptedReply) reply.body()).status();
	}

}
