package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.memory.SizeClass;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.siw.SiwWirePeer;
import io.rpcrdma.verbs.siw.wire.ReadRequest;
import io.rpcrdma.verbs.siw.wire.TerminateError;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Attacks on a server that only a peer writing iWARP by hand can make: it reads the STags the
 * server puts on the wire (the sink of every RDMA Read Request, RFC 5040 §4.4) and abuses them.
 * Each attack ends the attacker's connection with a Terminate and costs no other connection
 * anything (RFC 5040 §8, RFC 5042 §5.1, RFC 8166 §8).
 */
class WireLevelAttackTest extends RpcRdmaTransportKit {

	private static final int LENGTH = 3000;

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

	@Test
	void sendWithInvalidateOfTheServersReadSinkBreaksNoOtherConnection() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection honest = client(server, config());
		assertBulkCallsWork(honest, 1);

		try (SiwWirePeer attacker = SiwWirePeer.connect(server.localAddress(), deadline())) {
			// A Read chunk the attacker never answers: the server's Read Request shows the STag
			// of the server's own local memory the data would land in.
			attacker.send(digestCall(100, 0x0bad_0001, 0x10_0000_0000L));
			ReadRequest read = attacker.nextReadRequest();
			attacker.sendWithInvalidate(echoCall(101), read.sinkStag());

			TerminateMessage terminate = attacker.awaitEnd();
			assertThat(terminate).as("the Terminate that ended the attacker's connection").isNotNull();
			assertThat(terminate.error()).contains(TerminateError.RDMAP_INVALID_STAG);
		}

		assertBulkCallsWork(honest, 2);
		RpcRdmaClientConnection later = client(server, config());
		assertBulkCallsWork(later, 3);
		honest.close();
		later.close();
		eventually("the server has every buffer back", () -> this.serverPool.stats().leasedBytes() == 0);
	}

	@Test
	void aPeerCannotWriteIntoTheServersReadSinkNorReadReceiveBuffers() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection honest = client(server, config());

		try (SiwWirePeer attacker = SiwWirePeer.connect(server.localAddress(), deadline())) {
			attacker.send(digestCall(100, 0x0bad_0001, 0x10_0000_0000L));
			ReadRequest read = attacker.nextReadRequest();
			// The sink is registered for local write only: an RDMA Write into it is refused
			// as if the STag did not exist (RFC 5040 §8.2, "not yours" looks like "no such").
			attacker.write(read.sinkStag(), read.sinkTaggedOffset(), new byte[64]);

			TerminateMessage terminate = attacker.awaitEnd();
			assertThat(terminate).isNotNull();
			assertThat(terminate.error()).contains(TerminateError.DDP_TAGGED_INVALID_STAG);
		}
		assertBulkCallsWork(honest, 4);
	}

	@Test
	void readChunksLeftUnansweredAreReclaimedAfterTheOperationTimeout() throws Exception {
		// The attack of the review: large Read chunks whose RDMA Reads are never answered held
		// the server's bulk memory for as long as the connection stayed open.
		RpcRdmaServer server = echoServer(
				config().withPeerLimits(PeerLimits.DEFAULTS.withOperationTimeout(Duration.ofMillis(300))));
		RpcRdmaClientConnection honest = client(server, config());

		try (SiwWirePeer attacker = SiwWirePeer.connect(server.localAddress(), deadline())) {
			for (int i = 0; i < 4; i++) {
				attacker.send(digestCall(200 + i, 0x0bad_0002, 0x20_0000_0000L, 1 << 20));
			}
			attacker.nextReadRequest();
			assertThat(localBulkLeased()).as("bulk memory the attacker's calls hold").isGreaterThanOrEqualTo(1 << 20);
			assertBulkCallsWork(honest, 5);

			attacker.awaitEnd();
		}

		assertThat(server.stats().operationTimeouts()).isEqualTo(1);
		eventually("the attacker's bulk memory is back", () -> localBulkLeased() == 0);
		assertBulkCallsWork(honest, 6);
	}

	@Test
	void aServerThatNeverRepliesHoldsOnlyItsOwnCallsAndIsNotAnOperationTimeout() throws Exception {
		RpcRdmaServer honestServer = echoServer(config());
		RpcRdmaClientConnection honest = client(honestServer, config());
		try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			CompletableFuture<SiwWirePeer> accepted = CompletableFuture.supplyAsync(() -> {
				try {
					return SiwWirePeer.accept(listener, deadline());
				}
				catch (java.io.IOException ex) {
					throw new java.io.UncheckedIOException(ex);
				}
			});
			RpcRdmaClientConnection toHostile = closeAfterTest(await(RpcRdmaClientConnection.connect(this.clientProvider,
					this.clientPool, (InetSocketAddress) listener.getLocalSocketAddress(),
					config().withPeerLimits(PeerLimits.DEFAULTS.withOperationTimeout(Duration.ofMillis(300))),
					this.versionCache)));
			CompletableFuture<InboundReply> call;
			try (SiwWirePeer hostile = await(accepted)) {
				// The client's Send completes once the socket took it (siw, as Linux's siw), so
				// nothing the transport posted waits on this server, which never replies: the
				// call waits for its reply (its deadline is the caller's), and ends when the
				// connection does.
				call = toHostile.call(RpcWorkload.echo(1, new byte[64], false, 0, 0));
				hostile.nextMessage();
				assertBulkCallsWork(honest, 7);
				assertThat(call).isNotDone();
				assertThat(toHostile.stats().operationTimeouts()).isZero();
			}
			assertThat(failure(call)).isInstanceOf(TransportClosedException.class);
		}
		assertBulkCallsWork(honest, 7);
	}

	@Test
	void peersPinningBulkMemoryOnManyConnectionsLeaveRepliesTheirMemoryAndAreFailedSoonerUnderPressure()
			throws Exception {
		// A pool of 8 MiB: Read chunks of all connections together hold at most 4 MiB.
		RegisteredMemoryPool small = closeAfterTest(new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(),
				smallPool(8 << 20)));
		TransportConfig patient = config().withPeerLimits(
				PeerLimits.DEFAULTS.withOperationTimeout(Duration.ofSeconds(60)).withOperationTimeoutUnderPressure(Duration.ofMillis(300)));
		RpcRdmaServer server = closeAfterTest(RpcRdmaServer.listen(this.serverProvider, small, listenAddress(), patient,
				CreditBudget.unlimited(), this.executor, RpcWorkload::serve));
		RpcRdmaClientConnection honest = client(server, config());

		try (SiwWirePeer first = SiwWirePeer.connect(server.localAddress(), deadline());
				SiwWirePeer second = SiwWirePeer.connect(server.localAddress(), deadline())) {
			// Two peers, 3 MiB each, never answered: together more than the 4 MiB all may hold.
			for (int i = 0; i < 3; i++) {
				first.send(digestCall(300 + i, 0x0bad_0003, 0x30_0000_0000L, 1 << 20));
				second.send(digestCall(400 + i, 0x0bad_0004, 0x40_0000_0000L, 1 << 20));
			}
			first.nextReadRequest();
			second.nextReadRequest();
			// A result goes by RDMA Write from memory the Read chunks cannot take.
			InboundReply result = await(honest.call(RpcWorkload.generate(1, 1 << 20, (1 << 20) + 64, 0)));
			assertThat(RpcWorkload.opaqueResult(result)).hasSize(1 << 20);
			// An argument waits for Read-chunk memory, which the stalled peers give up once calls wait.
			assertBulkCallsWork(honest, 8, 1 << 20);

			first.awaitEnd();
			second.awaitEnd();
		}
		assertThat(server.stats().operationTimeouts()).isEqualTo(2);
		assertThat(honest.isOpen()).isTrue();
	}

	@Test
	void theServersBudgetCountsTheWholeBuffersReadChunksTake() throws Exception {
		// A pool of 8 MiB: Read chunks of all connections together hold at most 4 MiB. A call
		// of 1 MiB and a little is placed in a 2 MiB buffer, so two such calls fill the budget;
		// counting what they asked for would admit a third and hold 6 MiB.
		RegisteredMemoryPool small = closeAfterTest(new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(),
				smallPool(8 << 20)));
		TransportConfig patient = config().withPeerLimits(PeerLimits.DEFAULTS.withOperationTimeout(Duration.ofSeconds(60))
			.withOperationTimeoutUnderPressure(Duration.ofSeconds(60)));
		RpcRdmaServer server = closeAfterTest(RpcRdmaServer.listen(this.serverProvider, small, listenAddress(), patient,
				CreditBudget.unlimited(), this.executor, RpcWorkload::serve));

		try (SiwWirePeer peer = SiwWirePeer.connect(server.localAddress(), deadline())) {
			for (int i = 0; i < 3; i++) {
				peer.send(digestCall(500 + i, 0x0bad_0005, 0x50_0000_0000L, 1 << 20));
			}
			peer.nextReadRequest();
			peer.nextReadRequest();
			eventually("the third call waits for the server's budget", () -> server.stats().bulkShareWaits() == 1);
			assertThat(localBulkLeased(small)).isEqualTo(4 << 20);
		}
	}

	@Test
	void aResultTheServerHasNoMemoryToWriteFromSaysSo() throws Exception {
		// A server of 3 MiB, 1 MiB of it pre-registered for sends and the rest held by other
		// work: no room for the 1 MiB buffer a result's Write chunk is written from.
		RegisteredMemoryPool tiny = closeAfterTest(new RegisteredMemoryPool(this.serverProvider.allocateProtectionDomain(),
				smallPool(3 << 20)));
		RegisteredBuffer held = tiny.lease(BufferRole.LOCAL_BULK, 1 << 20);
		RegisteredBuffer alsoHeld = tiny.lease(BufferRole.LOCAL_BULK, 1 << 20);
		RpcRdmaServer server = closeAfterTest(RpcRdmaServer.listen(this.serverProvider, tiny, listenAddress(), config(),
				CreditBudget.unlimited(), this.executor, RpcWorkload::serve));
		RpcRdmaClientConnection client = client(server, config());

		Throwable failure = failure(client.call(RpcWorkload.generate(11, 1 << 20, (1 << 20) + 64, 0)));

		// RFC 8166 §4.5.3 gives the responder one answer for both: the requester names both.
		assertThat(failure).isInstanceOf(ReplyTooLargeException.class)
			.hasMessageContaining("offered Write chunks")
			.hasMessageContaining("out of memory")
			.hasMessageContaining("rpcrdma.memory.max-registered");
		held.release();
		assertThat(RpcWorkload.opaqueResult(await(client.call(RpcWorkload.generate(12, 1 << 20, (1 << 20) + 64, 0)))))
			.as("the same call once the memory is back").hasSize(1 << 20);
		alsoHeld.release();
	}

	private static MemoryPoolConfig smallPool(long maxRegisteredBytes) {
		List<SizeClass> classes = new ArrayList<>();
		for (SizeClass sizeClass : MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2).sizeClasses()) {
			if (sizeClass.role() == BufferRole.RECEIVE || sizeClass.role() == BufferRole.SEND) {
				classes.add(sizeClass);
			}
		}
		for (BufferRole role : List.of(BufferRole.READ_CHUNK, BufferRole.WRITE_CHUNK, BufferRole.LOCAL_BULK)) {
			classes.addAll(SizeClass.powersOfTwo(role, 4 << 10, 2 << 20));
		}
		return MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2).withSizeClasses(classes)
			.withMaxRegisteredBytes(maxRegisteredBytes);
	}

	private static long localBulkLeased(RegisteredMemoryPool pool) {
		return pool.stats()
			.sizeClasses()
			.stream()
			.filter((sizeClass) -> sizeClass.role() == BufferRole.LOCAL_BULK)
			.mapToLong((sizeClass) -> sizeClass.leasedBytes())
			.sum();
	}

	private long localBulkLeased() {
		return localBulkLeased(this.serverPool);
	}

	private void assertBulkCallsWork(RpcRdmaClientConnection client, int seed) throws Exception {
		assertBulkCallsWork(client, seed, LENGTH);
	}

	private void assertBulkCallsWork(RpcRdmaClientConnection client, int seed, int length) throws Exception {
		byte[] data = RpcWorkload.pattern(length, seed);
		InboundReply reply = await(client.call(RpcWorkload.echo(seed, data, true, 0, length + 64)));
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(data);
	}

	/** A DIGEST call whose argument's data is in a Read chunk at the given STag and address. */
	private static ByteBuffer digestCall(int xid, int stag, long address) {
		return digestCall(xid, stag, address, LENGTH);
	}

	private static ByteBuffer digestCall(int xid, int stag, long address, int length) {
		ByteBuffer whole = RpcWorkload.call(xid, RpcWorkload.DIGEST, new byte[length]);
		DdpRange item = RpcWorkload.argumentItem(xid, RpcWorkload.DIGEST, length);
		ByteBuffer inline = ByteBuffer.allocate(whole.remaining() - item.paddedLength());
		inline.put(whole.slice(0, item.offset())).put(whole.slice(item.paddedEnd(), whole.remaining() - item.paddedEnd()));
		return message(new RdmaMsg(xid, 8,
				new ChunkLists(List.of(new ReadSegment(item.offset(), stag, length, address)), List.of(), null)),
				inline.flip());
	}

	private static ByteBuffer echoCall(int xid) {
		return message(new RdmaMsg(xid, 4, ChunkLists.EMPTY), RpcWorkload.call(xid, RpcWorkload.ECHO, new byte[8]));
	}

	private static ByteBuffer message(RdmaMsg header, ByteBuffer payload) {
		ByteBuffer out = ByteBuffer.allocate(TransportHeaderEncoder.encodedLength(header) + payload.remaining());
		TransportHeaderEncoder.encode(header, new XdrEncoder(out));
		return out.put(payload).flip();
	}

}
