package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A connection's send queue is sized from what it can have outstanding, and work beyond it
 * waits for room instead of failing ({@link SendQueueBudget}): replies whose RDMA Writes and
 * Sends together need more work requests at once than the queue is deep all arrive, in order,
 * and a connection that fails with work waiting gives every buffer back.
 */
abstract class SendQueueTests extends RpcRdmaTransportKit {

	/** Write chunks per call: with the reply's Send, more work requests than the queue holds. */
	private static final int CHUNKS = 12;

	/**
	 * Two credits, three receives and an ORD of one: a send queue of 3 + 1 + 2 = 6 work
	 * requests, where one reply needs 12 RDMA Writes and a Send.
	 */
	private static TransportConfig shallow() {
		return config().withCredits(2, 2, 3).withMaxOutstandingReads(1);
	}

	@Test
	void theSendQueueIsSizedFromCreditsReceivesAndTheOrdNotAFixedFigure() {
		assertThat(SendQueueBudget.depth(shallow())).isEqualTo(6);
		assertThat(SendQueueBudget.depth(TransportConfig.defaults())).isEqualTo(40 + 16 + 32);
	}

	@Test
	void repliesNeedingMoreWorkRequestsThanTheSendQueueHoldsAllArriveWithTheirData() throws Exception {
		RpcRdmaServer server = server(shallow(), SendQueueTests::manyResults);
		RpcRdmaClientConnection client = client(server, config());
		assertThat(onlyConnection(server).qp.attributes().maxSendWorkRequests()).isEqualTo(6);

		List<CompletableFuture<InboundReply>> replies = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			replies.add(client.call(manyChunksCall(0x700 + i)));
		}

		for (int i = 0; i < replies.size(); i++) {
			InboundReply reply = await(replies.get(i));
			assertThat(reply.writeChunks()).hasSize(CHUNKS);
			for (int c = 0; c < CHUNKS; c++) {
				ByteBuffer written = reply.writeChunks().get(c);
				byte[] bytes = new byte[written.remaining()];
				written.duplicate().get(bytes);
				assertThat(bytes).as("call %d, chunk %d", i, c).isEqualTo(result(0x700 + i, c));
			}
		}
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.stats().writeChunksFilled()).isEqualTo(6L * CHUNKS);
		// Each reply needs 12 Writes and a Send on a queue of 6: what waited is counted (on siw
		// a Write completes once the socket took it, so a reply may not have to wait at all),
		// and the server's totals are its connection's.
		TransportStats stats = connection.stats();
		assertThat(stats.sendQueueWaitingHighWater()).isBetween(0, (int) Math.min(stats.sendQueueWaits(), 6L * CHUNKS));
		assertThat(server.stats().sendQueueWaits()).isEqualTo(stats.sendQueueWaits());
		assertThat(server.stats().sendQueueWaitingHighWater()).isEqualTo(stats.sendQueueWaitingHighWater());
		assertThat(client.stats().sendQueueWaits()).as("the client's calls fit its queue").isZero();
		eventually("no work request outstanding or waiting", () -> !connection.hasOperations());
	}

	@Test
	void aConnectionThatFailsWithWorkWaitingForTheSendQueueGivesEveryBufferBack() throws Exception {
		RpcRdmaServer server = server(shallow(), SendQueueTests::manyResults);
		RpcRdmaClientConnection client = client(server, config());
		RpcRdmaServerConnection connection = onlyConnection(server);

		List<CompletableFuture<InboundReply>> replies = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			replies.add(client.call(manyChunksCall(0x800 + i)));
		}
		eventually("replies are being written", () -> connection.stats().bytesWritten() > 0);
		connection.close();

		for (CompletableFuture<InboundReply> reply : replies) {
			try {
				await(reply);
			}
			catch (java.util.concurrent.ExecutionException ex) {
				assertThat(ex.getCause()).isInstanceOf(TransportException.class);
			}
		}
		await(connection.releasedFuture());
		assertThat(connection.hasOperations()).isFalse();
		eventually("the server returned every buffer", () -> this.serverPool.stats().leasedBytes() == 0);
		eventually("the client returned every buffer", () -> this.clientPool.stats().leasedBytes() == 0);
	}

	/** A call offering {@link #CHUNKS} Write chunks, one per result. */
	static OutboundCall manyChunksCall(int xid) {
		ByteBuffer message = ByteBuffer.allocate(RpcWorkload.headerLength(xid, RpcWorkload.GENERATE));
		RpcMessageCodec.encodeCall(RpcCall.of(xid, RpcWorkload.PROGRAM, 1, RpcWorkload.GENERATE),
				new XdrEncoder(message));
		return new OutboundCall(message.flip(), List.of(), Collections.nCopies(CHUNKS, 4096), 0);
	}

	/** Answers with {@link #CHUNKS} DDP-eligible opaques, each of its own length and pattern. */
	static void manyResults(InboundCall call, ReplySender replier) {
		XdrDecoder decoder = call.decoder();
		int xid = RpcMessageCodec.decodeCall(decoder).xid();
		int header = RpcMessageCodec.encodedSize(RpcReply.success(xid));
		ByteBuffer buffer = ByteBuffer.allocate(header + CHUNKS * (4 + 4096));
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeReply(RpcReply.success(xid), encoder);
		List<DdpRange> items = new ArrayList<>();
		for (int c = 0; c < CHUNKS; c++) {
			byte[] result = result(xid, c);
			items.add(new DdpRange(buffer.position() + 4, result.length));
			encoder.writeOpaque(result);
		}
		replier.reply(new OutboundReply(buffer.flip(), items));
	}

	static byte[] result(int xid, int chunk) {
		return RpcWorkload.pattern(1000 + 200 * chunk, xid + chunk);
	}

}
