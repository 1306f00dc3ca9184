package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.protocol.RpcRdmaConstants;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * Calls and replies conveyed inline and through each kind of chunk (RFC 5666 §3.4, §3.5,
 * §3.6, RFC 8166 §3.4 and §3.5), alone and combined, with RFC 8797 private data.
 */
abstract class ConveyanceTests extends RpcRdmaTransportKit {

	@Test
	void anInlineCallGetsItsReplyMatchedByXid() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(200, 1);

		InboundReply reply = await(client.call(RpcWorkload.echo(0x1234, data, false, 0, 0)));

		assertThat(reply.xid()).isEqualTo(0x1234);
		assertThat(reply.version()).isEqualTo(RpcRdmaConstants.VERSION_2);
		assertThat(reply.writeChunks()).isEmpty();
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(data);
		assertThat(client.isVersionConfirmed()).isTrue();
		assertThat(client.stats().inlineMessages()).isEqualTo(1);
		assertThat(client.stats().readChunksSent()).isZero();
		assertThat(onlyConnection(server).stats().inlineMessages()).isEqualTo(1);
	}

	@Test
	void privateDataSetsTheInlineThresholdToTheSmallerOfBothSides() throws Exception {
		RpcRdmaServer server = echoServer(config().withInlineThresholds(1024, 2048));
		RpcRdmaClientConnection client = client(server, config());

		// The client receives 4096 and sends up to 4096, the server receives 2048 (RFC 8797).
		assertThat(client.inlineSizes().sendThreshold(2)).isEqualTo(2048);
		assertThat(client.inlineSizes().receiveThreshold(2)).isEqualTo(2048);
		byte[] data = RpcWorkload.pattern(1900, 2);
		InboundReply reply = await(client.call(RpcWorkload.echo(1, data, false, 0, 0)));
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(data);
	}

	@Test
	void manyConcurrentInlineCallsAllGetTheirOwnReplies() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		List<java.util.concurrent.CompletableFuture<InboundReply>> futures = new java.util.ArrayList<>();
		for (int i = 0; i < 200; i++) {
			futures.add(client.call(RpcWorkload.echo(100 + i, RpcWorkload.pattern(16 + i, i), false, 0, 0)));
		}
		for (int i = 0; i < 200; i++) {
			InboundReply reply = await(futures.get(i));
			assertThat(reply.xid()).isEqualTo(100 + i);
			assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(16 + i, i));
		}
		assertThat(client.credits().outstanding()).isZero();
	}

	@Test
	void aReadChunkCarriesADdpEligibleArgument() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(50_001, 5);
		OutboundCall call = new OutboundCall(RpcWorkload.call(7, RpcWorkload.DIGEST, data),
				List.of(RpcWorkload.argumentItem(7, RpcWorkload.DIGEST, data.length)), List.of(), 0);

		long[] digest = RpcWorkload.digestResult(await(client.call(call)));

		assertThat(digest[0]).isEqualTo(data.length);
		assertThat(digest[1]).isEqualTo(RpcWorkload.crc(data));
		assertThat(client.stats().readChunksSent()).isEqualTo(1);
		assertThat(client.stats().positionZeroChunksSent()).isZero();
		assertThat(onlyConnection(server).stats().readChunksPulled()).isEqualTo(1);
	}

	@Test
	void aWriteChunkCarriesADdpEligibleResult() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());

		InboundReply reply = await(client.call(RpcWorkload.generate(9, 30_000, 32_768, 0)));

		assertThat(reply.writeChunks()).hasSize(1);
		assertThat(reply.writeChunks().get(0).remaining()).isEqualTo(30_000);
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(30_000, 3));
		assertThat(reply.message().remaining()).isLessThan(100);
		assertThat(onlyConnection(server).stats().writeChunksFilled()).isEqualTo(1);
	}

	@Test
	void anUnneededWriteChunkComesBackEmptyAndTheResultStaysInline() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());

		// The result (100 bytes) exceeds the offered 64-byte Write chunk: it stays inline.
		InboundReply reply = await(client.call(RpcWorkload.generate(10, 100, 64, 0)));

		assertThat(reply.writeChunks()).hasSize(1);
		assertThat(reply.writeChunks().get(0).remaining()).isZero();
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(100, 3));
		assertThat(onlyConnection(server).stats().writeChunksFilled()).isZero();
	}

	@Test
	void aResultCarriedApartFromTheReplyGoesByTheWriteChunkAndTheRestOfTheReplyFollowsItsLengthWord()
			throws Exception {
		int trailer = 0x5a5b5c5d;
		RpcRdmaServer server = server(config(), (call, replier) -> replier
			.reply(RpcWorkload.replyApart(call.xid(), RpcWorkload.pattern(30_001, 3), trailer)));
		RpcRdmaClientConnection client = client(server, config());

		InboundReply reply = await(client.call(RpcWorkload.generate(12, 30_001, 32_768, 0)));

		assertThat(reply.writeChunks()).hasSize(1);
		assertThat(reply.writeChunks().get(0).remaining()).isEqualTo(30_001);
		XdrDecoder decoder = new XdrDecoder(reply.message().duplicate());
		assertThat(RpcMessageCodec.decodeReply(decoder).isSuccess()).isTrue();
		assertThat(decoder.readInt()).as("the length word").isEqualTo(30_001);
		assertThat(decoder.readInt()).as("what follows the item").isEqualTo(trailer);
		assertThat(decoder.remaining()).isZero();
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(30_001, 3));
		assertThat(onlyConnection(server).stats().writeChunksFilled()).isEqualTo(1);
	}

	@Test
	void aResultCarriedApartThatNoWriteChunkTakesIsPutBackInlineWithItsPadding() throws Exception {
		int trailer = 0x01020304;
		RpcRdmaServer server = server(config(), (call, replier) -> replier
			.reply(RpcWorkload.replyApart(call.xid(), RpcWorkload.pattern(101, 3), trailer)));
		RpcRdmaClientConnection client = client(server, config());

		// The 64-byte Write chunk cannot take 101 bytes: they go inline, padded to 104.
		InboundReply reply = await(client.call(RpcWorkload.generate(13, 101, 64, 0)));

		assertThat(reply.writeChunks().get(0).remaining()).isZero();
		XdrDecoder decoder = new XdrDecoder(reply.message().duplicate());
		assertThat(RpcMessageCodec.decodeReply(decoder).isSuccess()).isTrue();
		assertThat(decoder.readOpaqueBytes(Integer.MAX_VALUE)).isEqualTo(RpcWorkload.pattern(101, 3));
		assertThat(decoder.readInt()).as("what follows the item, after three zero pad bytes").isEqualTo(trailer);
		ByteBuffer message = reply.message();
		int padAt = message.limit() - 4 - 3;
		assertThat(new byte[] { message.get(padAt), message.get(padAt + 1), message.get(padAt + 2) })
			.containsOnly((byte) 0);
		assertThat(onlyConnection(server).stats().writeChunksFilled()).isZero();
	}

	@Test
	void aReplyChunkCarriesALongReply() throws Exception {
		RpcRdmaServer server = server(config(), (call, replier) -> {
			// Nothing DDP-eligible: the whole 20 KB reply must go in the Reply chunk.
			int xid = call.message().getInt(0);
			replier.reply(OutboundReply.inline(RpcWorkload.reply(xid, RpcWorkload.pattern(20_000, 3), true).message()));
		});
		RpcRdmaClientConnection client = client(server, config());

		InboundReply reply = await(client.call(RpcWorkload.generate(11, 20_000, 0, 20_100)));

		assertThat(reply.writeChunks()).isEmpty();
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(20_000, 3));
		assertThat(onlyConnection(server).stats().replyChunksFilled()).isEqualTo(1);
		assertThat(onlyConnection(server).stats().inlineMessages()).isZero();
	}

	@Test
	void aPositionZeroReadChunkCarriesALongCall() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(10_000, 9);

		long[] digest = RpcWorkload
			.digestResult(await(client.call(OutboundCall.inline(RpcWorkload.call(12, RpcWorkload.DIGEST, data)))));

		assertThat(digest[0]).isEqualTo(10_000);
		assertThat(digest[1]).isEqualTo(RpcWorkload.crc(data));
		assertThat(client.stats().positionZeroChunksSent()).isEqualTo(1);
		assertThat(client.stats().inlineMessages()).isZero();
	}

	@Test
	void readWriteAndReplyChunksCombinedInOneCall() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(12_345, 11);

		// Argument by Read chunk, result by Write chunk, and a Reply chunk offered as well.
		InboundReply reply = await(client.call(RpcWorkload.echo(13, data, true, 16_384, 8_000)));

		assertThat(reply.writeChunks().get(0).remaining()).isEqualTo(12_345);
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(data);
		assertThat(client.stats().readChunksSent()).isEqualTo(1);
		assertThat(onlyConnection(server).stats().writeChunksFilled()).isEqualTo(1);
	}

	@Test
	void aLongCallWithAReadChunkKeepsPositionsRelativeToTheWholeMessage() throws Exception {
		RpcRdmaServer server = server(config(), (call, replier) -> {
			// Echo back the reassembled message's digest: it must equal the original call.
			ByteBuffer whole = call.message();
			byte[] bytes = new byte[whole.remaining()];
			whole.duplicate().get(bytes);
			replier.reply(RpcWorkload.reply(call.xid(), ByteBuffer.allocate(8).putLong(RpcWorkload.crc(bytes)).array(),
					false));
		});
		RpcRdmaClientConnection client = client(server, config().withInlineThresholds(1024, 1024));
		// A 3000-byte argument in a Read chunk plus a header padded so the rest exceeds 1 KB.
		byte[] data = RpcWorkload.pattern(3001, 4);
		ByteBuffer message = RpcWorkload.call(14, RpcWorkload.ECHO, data);
		ByteBuffer big = ByteBuffer.allocate(message.remaining() + 2000);
		big.put(message.duplicate());
		big.put(new byte[2000]).flip();
		byte[] original = new byte[big.remaining()];
		big.duplicate().get(original);
		OutboundCall call = new OutboundCall(big, List.of(RpcWorkload.argumentItem(14, RpcWorkload.ECHO, 3001)),
				List.of(), 0);

		InboundReply reply = await(client.call(call));

		io.rpcrdma.xdr.XdrDecoder decoder = new io.rpcrdma.xdr.XdrDecoder(reply.message().duplicate());
		io.rpcrdma.oncrpc.RpcMessageCodec.decodeReply(decoder);
		assertThat(decoder.readHyper()).isEqualTo(RpcWorkload.crc(original));
		assertThat(client.stats().positionZeroChunksSent()).isEqualTo(1);
		assertThat(client.stats().readChunksSent()).isEqualTo(2);
	}

	@Test
	void aPeerThatAcceptsRemoteInvalidationGetsItsWriteChunkInvalidatedBySendWithInvalidate() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		await(client.call(RpcWorkload.generate(20, 5000, 8192, 0)));
		assertThat(client.stats().invalidatedByPeer()).isEqualTo(1);
	}

	@Test
	void aPeerThatRefusesRemoteInvalidationGetsPlainSends() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config().withFeatures(false, false, true));
		InboundReply reply = await(client.call(RpcWorkload.generate(21, 5000, 8192, 0)));
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(RpcWorkload.pattern(5000, 3));
		assertThat(client.stats().invalidatedByPeer()).isZero();
	}

	@Test
	void aCallEncodedByAWriterCallbackIsConveyedLikeABuffer() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(77, 6);
		OutboundCall call = OutboundCall.write(512, (encoder) -> {
			io.rpcrdma.oncrpc.RpcMessageCodec
				.encodeCall(io.rpcrdma.oncrpc.RpcCall.of(22, RpcWorkload.PROGRAM, 1, RpcWorkload.ECHO), encoder);
			encoder.writeOpaque(data);
		}, List.of(), List.of(), 0);

		InboundReply reply = await(client.call(call));

		assertThat(reply.xid()).isEqualTo(22);
		assertThat(RpcWorkload.opaqueResult(reply)).isEqualTo(data);
	}

	@Test
	void manyThreadsMixingEveryConveyanceAllGetTheirOwnCorrectReplies() throws Exception {
		RpcRdmaServer server = echoServer(config());
		RpcRdmaClientConnection client = client(server, config());
		int threads = 6;
		int perThread = 40;
		java.util.concurrent.ConcurrentLinkedQueue<Throwable> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
		List<Thread> workers = new java.util.ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			Thread worker = new Thread(() -> {
				for (int i = 0; i < perThread; i++) {
					int xid = thread * 1000 + i;
					int kind = (thread + i) % 4;
					byte[] data = RpcWorkload.pattern(kind == 0 ? 100 : 5000 + i, xid);
					OutboundCall call = switch (kind) {
						case 0 -> RpcWorkload.echo(xid, data, false, 0, 0);
						case 1 -> RpcWorkload.echo(xid, data, true, 8192, 0);
						case 2 -> RpcWorkload.echo(xid, data, false, 0, 8192);
						default -> RpcWorkload.echo(xid, data, true, 0, 8192);
					};
					try {
						InboundReply reply = client.call(call).get(30, java.util.concurrent.TimeUnit.SECONDS);
						if (reply.xid() != xid || !java.util.Arrays.equals(RpcWorkload.opaqueResult(reply), data)) {
							errors.add(new AssertionError("wrong reply for XID " + xid));
						}
					}
					catch (Exception | AssertionError ex) {
						errors.add(ex);
					}
				}
			});
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}
		assertThat(errors).isEmpty();
		assertThat(client.credits().outstanding()).isZero();
		eventually("the client returned every chunk buffer", () -> this.clientPool.stats().leasedBytes()
				== (long) client.postedReceives() * this.clientPool.largestBufferSize(io.rpcrdma.memory.BufferRole.RECEIVE));
	}

	@Test
	void aCallWithReadChunksIsPlacedInOneRegisteredBufferHeldUntilTheReply() throws Exception {
		java.util.concurrent.atomic.AtomicBoolean direct = new java.util.concurrent.atomic.AtomicBoolean();
		java.util.concurrent.atomic.AtomicLong leasedDuringCall = new java.util.concurrent.atomic.AtomicLong(-1);
		RpcRdmaServer server = server(config(), (call, replier) -> {
			direct.set(call.message().isDirect());
			leasedDuringCall.set(localBulkLeased(this.serverPool));
			RpcWorkload.serve(call, replier);
		});
		RpcRdmaClientConnection client = client(server, config());
		byte[] first = RpcWorkload.pattern(10_001, 1);
		byte[] second = RpcWorkload.pattern(70_002, 2);
		// Two DDP-eligible opaques with a word between them: two Read chunks and three inline fragments.
		int header = RpcWorkload.headerLength(30, RpcWorkload.ECHO);
		ByteBuffer message = ByteBuffer.allocate(header + 4 + 10_004 + 4 + 4 + 70_004 + 4);
		io.rpcrdma.xdr.XdrEncoder encoder = new io.rpcrdma.xdr.XdrEncoder(message);
		io.rpcrdma.oncrpc.RpcMessageCodec
			.encodeCall(io.rpcrdma.oncrpc.RpcCall.of(30, RpcWorkload.PROGRAM, 1, RpcWorkload.DIGEST), encoder);
		encoder.writeOpaque(first).writeInt(0x5a5a_5a5a).writeOpaque(second).writeInt(0x7e7e_7e7e);
		message.flip();
		byte[] whole = new byte[message.remaining()];
		message.duplicate().get(whole);
		OutboundCall call = new OutboundCall(message, List.of(new DdpRange(header + 4, 10_001),
				new DdpRange(header + 4 + 10_004 + 4 + 4, 70_002)), List.of(), 0);

		long[] digest = RpcWorkload.digestResult(await(client.call(call)));

		// DIGEST reads the first opaque: it arrived intact, at its place in the rebuilt message.
		assertThat(digest[0]).isEqualTo(10_001);
		assertThat(digest[1]).isEqualTo(RpcWorkload.crc(first));
		assertThat(direct).as("the message is registered (direct) memory").isTrue();
		assertThat(leasedDuringCall.get()).as("one local bulk buffer holds the whole call").isEqualTo(1);
		assertThat(onlyConnection(server).stats().readChunksPulled()).isEqualTo(2);
		eventually("the call's buffer went back to the pool", () -> localBulkLeased(this.serverPool) == 0);
		assertThat(this.serverPool.leaks()).noneMatch((lease) -> lease.sizeClass().startsWith("local-bulk"));
	}

	@Test
	void theWholeCallRebuiltInRegisteredMemoryIsByteForByteTheCallSent() throws Exception {
		java.util.concurrent.atomic.AtomicReference<byte[]> received = new java.util.concurrent.atomic.AtomicReference<>();
		RpcRdmaServer server = server(config(), (call, replier) -> {
			byte[] bytes = new byte[call.message().remaining()];
			call.message().duplicate().get(bytes);
			received.set(bytes);
			replier.reply(RpcWorkload.reply(call.xid(), new byte[8], false));
		});
		RpcRdmaClientConnection client = client(server, config());
		byte[] data = RpcWorkload.pattern(5_003, 7);
		ByteBuffer message = RpcWorkload.call(31, RpcWorkload.ECHO, data);
		byte[] sent = new byte[message.remaining()];
		message.duplicate().get(sent);

		await(client.call(new OutboundCall(message, List.of(RpcWorkload.argumentItem(31, RpcWorkload.ECHO, 5_003)),
				List.of(), 0)));

		// The XDR roundup the requester left out is restored as zeros (RFC 5666 §3.7).
		assertThat(received.get()).isEqualTo(sent);
	}

	@Test
	void aRegisteredItemIsAdvertisedFromTheCallersBufferAtItsXdrPositionAlsoInALongCall() throws Exception {
		RpcRdmaServer server = server(config(), (call, replier) -> {
			ByteBuffer whole = call.message();
			byte[] bytes = new byte[whole.remaining()];
			whole.duplicate().get(bytes);
			replier.reply(RpcWorkload.reply(call.xid(), ByteBuffer.allocate(8).putLong(RpcWorkload.crc(bytes)).array(),
					false));
		});
		RpcRdmaClientConnection client = client(server, config().withInlineThresholds(1024, 1024));
		byte[] data = RpcWorkload.pattern(6001, 8);
		// What the responder must rebuild: header, the opaque, then 2000 bytes more (so the
		// inline part exceeds 1 KB and goes in a Position-Zero Read chunk).
		ByteBuffer expected = RpcWorkload.call(15, RpcWorkload.ECHO, data);
		ByteBuffer full = ByteBuffer.allocate(expected.remaining() + 2000).put(expected.duplicate()).put(new byte[2000]).flip();
		byte[] original = new byte[full.remaining()];
		full.duplicate().get(original);
		// What the requester encodes: the same without the opaque's data.
		int header = RpcWorkload.headerLength(15, RpcWorkload.ECHO);
		ByteBuffer encoded = ByteBuffer.allocate(header + 4 + 2000);
		encoded.put(full.duplicate().limit(header + 4)).put(new byte[2000]).flip();
		io.rpcrdma.memory.RegisteredBuffer buffer = this.clientPool.lease(io.rpcrdma.memory.BufferRole.READ_CHUNK,
				data.length);
		buffer.buffer().put(0, data);
		try {
			OutboundCall call = new OutboundCall(encoded, List.of(), List.of(), 0,
					List.of(new RegisteredItem(header + 4, buffer, data.length)));

			InboundReply reply = await(client.call(call));

			io.rpcrdma.xdr.XdrDecoder decoder = new io.rpcrdma.xdr.XdrDecoder(reply.message().duplicate());
			io.rpcrdma.oncrpc.RpcMessageCodec.decodeReply(decoder);
			assertThat(decoder.readHyper()).isEqualTo(RpcWorkload.crc(original));
			assertThat(client.stats().positionZeroChunksSent()).isEqualTo(1);
			assertThat(client.stats().readChunksSent()).isEqualTo(2);
		}
		finally {
			buffer.release();
		}
	}

	@Test
	void registeredItemsThatOverlapEncodedItemsOrPrecedeTheHeaderAreRefused() {
		io.rpcrdma.memory.RegisteredBuffer buffer = this.clientPool.tryLease(io.rpcrdma.memory.BufferRole.READ_CHUNK, 64);
		try {
			ByteBuffer message = ByteBuffer.allocate(64);
			assertThatThrownBy(() -> new OutboundCall(message, List.of(new DdpRange(16, 20)), List.of(), 0,
					List.of(new RegisteredItem(24, buffer, 8))))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("inside DDP-eligible item");
			assertThatThrownBy(() -> new OutboundCall(message, List.of(), List.of(), 0,
					List.of(new RegisteredItem(4, buffer, 8))))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("precedes the RPC header");
			assertThatThrownBy(() -> new RegisteredItem(8, buffer, buffer.length() + 1))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("between 0 and its buffer's");
		}
		finally {
			buffer.release();
		}
	}

	static long localBulkLeased(io.rpcrdma.memory.RegisteredMemoryPool pool) {
		return pool.stats().sizeClasses().stream()
			.filter((stats) -> stats.role() == io.rpcrdma.memory.BufferRole.LOCAL_BULK)
			.mapToLong(io.rpcrdma.memory.SizeClassStats::leased)
			.sum();
	}

	@Test
	void manyCallsWithSeveralReadChunksNeverHaveMoreReadsOutstandingThanTheOrd() throws Exception {
		int ord = 2;
		RpcRdmaServer server = server(config().withMaxOutstandingReads(ord), ConveyanceTests::digestAll);
		RpcRdmaClientConnection client = client(server, config());
		List<java.util.concurrent.CompletableFuture<InboundReply>> futures = new java.util.ArrayList<>();
		List<Long> expected = new java.util.ArrayList<>();
		for (int i = 0; i < 24; i++) {
			byte[][] items = { RpcWorkload.pattern(2000 + i, i), RpcWorkload.pattern(3001, i + 1),
					RpcWorkload.pattern(1500 + 3 * i, i + 2) };
			futures.add(client.call(multiChunkCall(0x500 + i, items)));
			java.util.zip.CRC32 crc = new java.util.zip.CRC32();
			for (byte[] item : items) {
				crc.update(item);
			}
			expected.add(crc.getValue());
		}
		for (int i = 0; i < futures.size(); i++) {
			io.rpcrdma.xdr.XdrDecoder decoder = new io.rpcrdma.xdr.XdrDecoder(await(futures.get(i)).message().duplicate());
			io.rpcrdma.oncrpc.RpcMessageCodec.decodeReply(decoder);
			assertThat(decoder.readHyper()).as("digest of call %d", i).isEqualTo(expected.get(i));
		}

		TransportStats stats = onlyConnection(server).stats();
		assertThat(stats.readChunksPulled()).isEqualTo(72);
		assertThat(stats.readsInFlightHighWater()).isBetween(1, ord);
		assertThat(stats.readsQueued()).as("reads had to wait for the ORD").isPositive();
		assertThat(onlyConnection(server).outstanding()).isZero();
	}

	/** A call of the workload program whose arguments are opaques, each in its own Read chunk. */
	static OutboundCall multiChunkCall(int xid, byte[]... items) {
		int header = RpcWorkload.headerLength(xid, RpcWorkload.DIGEST);
		int length = header;
		for (byte[] item : items) {
			length += 4 + (int) io.rpcrdma.xdr.Xdr.pad(item.length);
		}
		ByteBuffer buffer = ByteBuffer.allocate(length);
		io.rpcrdma.xdr.XdrEncoder encoder = new io.rpcrdma.xdr.XdrEncoder(buffer);
		io.rpcrdma.oncrpc.RpcMessageCodec.encodeCall(
				io.rpcrdma.oncrpc.RpcCall.of(xid, RpcWorkload.PROGRAM, 1, RpcWorkload.DIGEST), encoder);
		List<DdpRange> ranges = new java.util.ArrayList<>();
		for (byte[] item : items) {
			ranges.add(new DdpRange(buffer.position() + 4, item.length));
			encoder.writeOpaque(item);
		}
		return new OutboundCall(buffer.flip(), ranges, List.of(), 0);
	}

	/** Answers a {@link #multiChunkCall} with the CRC-32 of all its opaques. */
	static void digestAll(InboundCall call, ReplySender replier) {
		io.rpcrdma.xdr.XdrDecoder decoder = new io.rpcrdma.xdr.XdrDecoder(call.message().duplicate());
		io.rpcrdma.oncrpc.RpcMessageCodec.decodeCall(decoder);
		java.util.zip.CRC32 crc = new java.util.zip.CRC32();
		while (decoder.remaining() > 0) {
			crc.update(decoder.readOpaqueBytes(Integer.MAX_VALUE));
		}
		replier.reply(RpcWorkload.reply(call.xid(), ByteBuffer.allocate(8).putLong(crc.getValue()).array(), false));
	}

}
