package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.Rdma2ErrBadHeader;
import io.rpcrdma.protocol.Rdma2ErrInvalOption;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.Rdma2Optional;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.protocol.TraceContextOption;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;

/**
 * The trace-context optional feature (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1;
 * {@link TraceContextOption}): offered on Version Two connections once the version is
 * confirmed, never on Version One, and no more once the responder answers
 * RDMA_ERR_INVAL_OPTION, whose call is sent again without it.
 */
abstract class TraceContextTests extends RpcRdmaTransportKit {

	static final TraceContext CONTEXT = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
			"congo=t61rcWkgMzE");

	private static OutboundCall traced(int xid, byte[] data) {
		return traced(RpcWorkload.echo(xid, data, false, 0, 0));
	}

	private static OutboundCall traced(OutboundCall call) {
		return new OutboundCall(call.message(), call.readChunkItems(), call.writeChunkSizes(), call.maxReplySize(),
				call.registeredItems(), CONTEXT);
	}

	/** An echo server that records the trace context of each call it serves, null for none. */
	private RpcRdmaServer recordingServer(TransportConfig config, List<String> seen) {
		return server(config, (call, replier) -> {
			seen.add((call.traceContext() != null) ? call.traceContext().toString() : "none");
			RpcWorkload.serve(call, replier);
		});
	}

	@Test
	void aVersionTwoServerReceivesTheCallersContextFromTheFirstCallOn() throws Exception {
		List<String> seen = new CopyOnWriteArrayList<>();
		RpcRdmaServer server = recordingServer(config(), seen);
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(100, 1);

		assertThat(RpcWorkload.opaqueResult(await(client.call(traced(1, data))))).isEqualTo(data);
		assertThat(RpcWorkload.opaqueResult(await(client.call(traced(2, data))))).isEqualTo(data);
		// A call that carries no context is a plain RDMA2_MSG, as before.
		assertThat(RpcWorkload.opaqueResult(await(client.call(RpcWorkload.echo(3, data, false, 0, 0))))).isEqualTo(data);
		// Chunks travel in the wrapped header: an argument in a Read chunk, a Reply chunk for
		// a reply larger than the inline threshold, and a Long Call (RDMA2_NOMSG).
		byte[] large = RpcWorkload.pattern(20_000, 4);
		assertThat(RpcWorkload.opaqueResult(await(client.call(traced(RpcWorkload.echo(4, large, true, 0, 30_000))))))
			.isEqualTo(large);
		byte[] longCall = RpcWorkload.pattern(6000, 5);
		assertThat(RpcWorkload.opaqueResult(await(client.call(traced(RpcWorkload.echo(5, longCall, false, 0, 10_000))))))
			.isEqualTo(longCall);

		assertThat(client.version()).isEqualTo(2);
		assertThat(client.offersTraceContext()).isTrue();
		assertThat(seen).containsExactly(CONTEXT.toString(), CONTEXT.toString(), "none", CONTEXT.toString(),
				CONTEXT.toString());
		assertThat(onlyConnection(server).stats().rdmaErrorsSent()).isZero();
	}

	@Test
	void aVersionOneServerNeverSeesTheOption() throws Exception {
		List<String> seen = new CopyOnWriteArrayList<>();
		// Version One only, as Linux's kernel RPC-over-RDMA server is.
		RpcRdmaServer server = recordingServer(v1Only(), seen);
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(100, 2);

		for (int xid = 1; xid <= 3; xid++) {
			assertThat(RpcWorkload.opaqueResult(await(client.call(traced(xid, data))))).isEqualTo(data);
		}

		assertThat(client.version()).isEqualTo(1);
		assertThat(client.offersTraceContext()).isFalse();
		assertThat(seen).containsExactly("none", "none", "none");
		assertThat(onlyConnection(server).stats().rdmaErrorsSentByCode().errInvalOption()).isZero();
	}

	@Test
	void aResponderThatRefusesTheOptionGetsTheCallAgainPlainAndNeverTheOptionAgain() throws Exception {
		CompletableFuture<RawPeer> accepted = new CompletableFuture<>();
		RdmaListener listener = RawPeer.listen(this.serverProvider, listenAddress(), PrivateData.EMPTY, deadline(),
				accepted);
		closeAfterTest(listener);
		RpcRdmaClientConnection client = closeAfterTest(RpcRdmaClientConnection
			.connect(this.clientProvider, this.clientPool, listener.localAddress(), config(), this.versionCache)
			.get(deadline().toMillis(), TimeUnit.MILLISECONDS));
		RawPeer server = accepted.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		byte[] data = RpcWorkload.pattern(40, 3);

		// The first call, which also negotiates the version (draft §5), offers the option.
		CompletableFuture<InboundReply> first = client.call(traced(0x42, data));
		TransportHeader offered = header(server.receive());
		assertThat(offered).isInstanceOf(Rdma2Optional.class);
		assertThat(((Rdma2Optional) offered).optionType()).isEqualTo(TraceContextOption.OPTION_TYPE);
		assertThat(TraceContextOption.decode(((Rdma2Optional) offered).optionInfo()).context()).isEqualTo(CONTEXT);
		// A responder that knows no optional feature (draft §3.1).
		server.send(new Rdma2ErrInvalOption(0x42, 8), null);
		ByteBuffer again = server.receive();
		assertThat(header(again)).isEqualTo(new Rdma2Msg(0x42, 8, ChunkLists.EMPTY));
		assertThat(payload(again).getInt(0)).isEqualTo(0x42);
		answer(server, 0x42, data);
		assertThat(RpcWorkload.opaqueResult(await(first))).isEqualTo(data);
		assertThat(client.offersTraceContext()).isFalse();

		CompletableFuture<InboundReply> second = client.call(traced(0x43, data));
		assertThat(header(server.receive())).isInstanceOf(Rdma2Msg.class);
		answer(server, 0x43, data);
		await(second);
	}

	private static void answer(RawPeer server, int xid, byte[] data) {
		server.send(new Rdma2Msg(xid, 8, ChunkLists.EMPTY), RpcWorkload.reply(xid, data, true).message());
	}

	@Test
	void theServerAnswersATraceOptionWithMalformedInfoWithBadHeader() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		ByteBuffer call = RpcWorkload.call(0x61, RpcWorkload.ECHO, new byte[4]);

		// A traceparent length beyond the bound, then the call.
		raw.send(new Rdma2Optional(0x61, 1, TraceContextOption.OPTION_TYPE, bytesOf(bytes(4096, 0))), call.duplicate());
		TransportHeader refused = header(raw.receive());
		assertThat(refused).isInstanceOf(Rdma2ErrBadHeader.class);
		assertThat(refused.xid()).isEqualTo(0x61);

		// The option without the call that MUST follow it.
		raw.send(new Rdma2Optional(0x62, 1, TraceContextOption.OPTION_TYPE, TraceContextOption.encode(CONTEXT,
				new Rdma2Msg(0x62, 1, ChunkLists.EMPTY))), null);
		assertThat(header(raw.receive())).isInstanceOf(Rdma2ErrBadHeader.class);

		// A well-formed one is served as the call it carries.
		ByteBuffer good = RpcWorkload.call(0x63, RpcWorkload.ECHO, new byte[] { 1, 2, 3, 4 });
		raw.send(new Rdma2Optional(0x63, 1, TraceContextOption.OPTION_TYPE, TraceContextOption.encode(CONTEXT,
				new Rdma2Msg(0x63, 1, ChunkLists.EMPTY))), good);
		ByteBuffer reply = raw.receive();
		assertThat(header(reply)).isInstanceOf(Rdma2Msg.class).isNotInstanceOf(RdmaMsg.class);
		assertThat(header(reply).xid()).isEqualTo(0x63);
	}

	private static byte[] bytesOf(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.duplicate().get(bytes);
		return bytes;
	}

}
