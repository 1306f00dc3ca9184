package io.rpcrdma.verbs.siw;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Completion;
import io.rpcrdma.verbs.conformance.Endpoint;
import io.rpcrdma.verbs.siw.wire.TerminateError;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;

/**
 * Behaviour of the siw provider beyond the conformance kit: it is the default provider,
 * bulk Reads in both directions of one connection do not deadlock, and its settings are
 * validated.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SiwProviderTest {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@Test
	void siwIsTheAutomaticChoiceWithoutAnRdmaDevice() {
		try (RdmaProvider provider = RdmaProviders.open("auto")) {
			assertThat(provider.name()).isIn("siw", "disni");
		}
	}

	@Test
	void sixtyFourMebibyteReadsInBothDirectionsAtOnceFinish() throws Exception {
		int size = 64 << 20;
		try (RdmaProvider a = RdmaProviders.open("siw"); RdmaProvider b = RdmaProviders.open("siw")) {
			Endpoint server = new Endpoint(a, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(b, null, DEADLINE, UnaryOperator.identity());
			connect(client, server);
			MemoryRegion serverSource = server.registerPattern(size, 1, REMOTE_READ);
			MemoryRegion clientSource = client.registerPattern(size, 2, REMOTE_READ);
			MemoryRegion serverSink = server.register(size, 0, LOCAL_WRITE);
			MemoryRegion clientSink = client.register(size, 0, LOCAL_WRITE);
			CountDownLatch start = new CountDownLatch(1);
			CompletableFuture<Completion> clientRead = CompletableFuture.supplyAsync(() -> {
				await(start);
				client.qp.postSend(SendWorkRequest.rdmaRead(1, serverSource.remoteAddress(0), ScatterGatherEntry.of(clientSink)));
				return client.sends.next();
			});
			CompletableFuture<Completion> serverRead = CompletableFuture.supplyAsync(() -> {
				await(start);
				server.qp.postSend(SendWorkRequest.rdmaRead(2, clientSource.remoteAddress(0), ScatterGatherEntry.of(serverSink)));
				return server.sends.next();
			});
			start.countDown();
			assertThat(clientRead.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(CompletionStatus.SUCCESS);
			assertThat(serverRead.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(CompletionStatus.SUCCESS);
			assertPattern(clientSink.buffer(), size, 1);
			assertPattern(serverSink.buffer(), size, 2);
		}
	}

	@Test
	void largeRdmaWritesInBothDirectionsArriveIntactBeforeTheSendsThatFollowThem() throws Exception {
		// Segments of 16 KiB and more are read from the socket straight into the target
		// region (CRC off); what follows them on the stream must still find the data placed.
		int size = 16 << 20;
		try (RdmaProvider a = RdmaProviders.open("siw"); RdmaProvider b = RdmaProviders.open("siw")) {
			Endpoint server = new Endpoint(a, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(b, null, DEADLINE, UnaryOperator.identity());
			MemoryRegion serverTarget = server.register(size + 3, 0, LOCAL_WRITE, REMOTE_WRITE);
			MemoryRegion clientTarget = client.register(size + 3, 0, LOCAL_WRITE, REMOTE_WRITE);
			MemoryRegion serverInbox = server.register(64, 0, LOCAL_WRITE);
			MemoryRegion clientInbox = client.register(64, 0, LOCAL_WRITE);
			server.postReceive(1, serverInbox);
			client.postReceive(1, clientInbox);
			connect(client, server);
			MemoryRegion clientData = client.registerPattern(size, 4);
			MemoryRegion serverData = server.registerPattern(size, 5);
			MemoryRegion note = client.registerPattern(8, 0);
			MemoryRegion serverNote = server.registerPattern(8, 0);
			CountDownLatch start = new CountDownLatch(1);
			CompletableFuture<Void> fromClient = CompletableFuture.runAsync(() -> {
				await(start);
				// At an odd offset, so that no segment lines up with anything.
				client.qp.postSend(SendWorkRequest.rdmaWrite(1, serverTarget.remoteAddress(3), ScatterGatherEntry.of(clientData)));
				client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(note)));
			});
			CompletableFuture<Void> fromServer = CompletableFuture.runAsync(() -> {
				await(start);
				server.qp.postSend(SendWorkRequest.rdmaWrite(1, clientTarget.remoteAddress(3), ScatterGatherEntry.of(serverData)));
				server.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(serverNote)));
			});
			start.countDown();
			fromClient.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			fromServer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

			assertThat(server.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			assertThat(client.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			assertPattern(serverTarget.buffer().slice(3, size), size, 4);
			assertPattern(clientTarget.buffer().slice(3, size), size, 5);
			assertThat(serverTarget.buffer().get(0)).as("nothing before the write").isZero();
			assertThat(client.sends.next(2)).extracting(Completion::status).containsOnly(CompletionStatus.SUCCESS);
		}
	}

	@Test
	void aLargeRdmaWriteGatheredFromSeveralRegionsArrivesWholeAndInOrder() throws Exception {
		// Segments of a large Write (sent by the transmit thread) follow the scatter/gather
		// entries, however short or oddly placed, and arrive in order.
		int[] offsets = { 5, 0, 1 };
		int[] lengths = { 30_001, 7, 100_003 };
		int total = lengths[0] + lengths[1] + lengths[2];
		try (RdmaProvider a = RdmaProviders.open("siw"); RdmaProvider b = RdmaProviders.open("siw")) {
			Endpoint server = new Endpoint(a, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(b, null, DEADLINE, UnaryOperator.identity());
			MemoryRegion target = server.register(total + 2, 0, LOCAL_WRITE, REMOTE_WRITE);
			MemoryRegion inbox = server.register(64, 0, LOCAL_WRITE);
			server.postReceive(1, inbox);
			connect(client, server);
			ScatterGatherEntry[] pieces = new ScatterGatherEntry[3];
			for (int i = 0; i < 3; i++) {
				MemoryRegion source = client.registerPattern(offsets[i] + lengths[i] + 3, 10 * (i + 1));
				pieces[i] = ScatterGatherEntry.of(source, offsets[i], lengths[i]);
			}
			client.qp.postSend(SendWorkRequest.rdmaWrite(1, target.remoteAddress(1), pieces));
			client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(client.registerPattern(8, 0))));

			assertThat(server.receives.next().status()).as("the Send after the Write").isEqualTo(CompletionStatus.SUCCESS);
			assertThat(client.sends.next(2)).extracting(Completion::status).containsOnly(CompletionStatus.SUCCESS);
			int at = 1;
			for (int i = 0; i < 3; i++) {
				for (int j = 0; j < lengths[i]; j++) {
					byte expected = (byte) (10 * (i + 1) + offsets[i] + j);
					if (target.buffer().get(at + j) != expected) {
						throw new AssertionError("Entry " + i + ", byte " + j + " is " + target.buffer().get(at + j)
								+ " but should be " + expected);
					}
				}
				at += lengths[i];
			}
			assertThat(target.buffer().get(0)).as("nothing before the write").isZero();
			assertThat(target.buffer().get(total + 1)).as("nothing after it").isZero();
		}
	}

	@Test
	void aLargeRdmaWritePastTheEndOfItsRegionTouchesNothingBeyondItAndFailsTheConnection() throws Exception {
		int size = 256 * 1024;
		try (RdmaProvider a = RdmaProviders.open("siw"); RdmaProvider b = RdmaProviders.open("siw")) {
			Endpoint server = new Endpoint(a, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(b, null, DEADLINE, UnaryOperator.identity());
			ByteBuffer whole = ByteBuffer.allocateDirect(size + 128);
			for (int i = 0; i < whole.capacity(); i++) {
				whole.put(i, (byte) 0x5a);
			}
			MemoryRegion target = server.pd.registerMemory(whole.slice(64, size),
					java.util.EnumSet.of(LOCAL_WRITE, REMOTE_WRITE));
			connect(client, server);
			// RFC 5041 §7: each segment is checked on its own. The first ones fit and may be
			// placed straight from the socket; the one that passes the end is refused whole, by
			// the same checks, and the guard bytes around the region stay as they were.
			client.qp.postSend(SendWorkRequest.rdmaWrite(1, target.remoteAddress(size / 2),
					ScatterGatherEntry.of(client.registerPattern(size, 6))));

			// As on Linux's siw the Write completes once the socket took it; a Write still being
			// transmitted when the peer's Terminate arrives is the oldest outstanding work
			// request, so it takes the Terminate's status (remote access error), or is flushed if
			// the connection went down first. Either way the connection fails.
			Completion completion = client.sends.next();
			assertThat(completion.status()).isIn(CompletionStatus.SUCCESS, CompletionStatus.REM_ACCESS_ERR,
					CompletionStatus.WR_FLUSH_ERR);
			client.events.await(io.rpcrdma.verbs.ConnectionEventType.DISCONNECTED);
			assertThat(client.connection.isConnected()).isFalse();
			for (int i = 0; i < 64; i++) {
				assertThat(whole.get(i)).as("guard byte %d before the region", i).isEqualTo((byte) 0x5a);
				assertThat(whole.get(64 + size + i)).as("guard byte %d after the region", i).isEqualTo((byte) 0x5a);
			}
			for (int i = 0; i < size / 2; i++) {
				assertThat(whole.get(64 + i)).as("region byte %d before the write", i).isEqualTo((byte) 0x5a);
			}
		}
	}

	@Test
	void sendsLargerThanOneFpduAreSegmentedAndReassembledWithASmallMss() throws Exception {
		RdmaProviderConfig smallMss = RdmaProviderConfig.defaults().with(SiwSettings.MSS, "536");
		try (RdmaProvider a = RdmaProviders.open("siw", smallMss); RdmaProvider b = RdmaProviders.open("siw", smallMss)) {
			Endpoint server = new Endpoint(a, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(b, null, DEADLINE, UnaryOperator.identity());
			MemoryRegion inbox = server.register(100_000, 0, LOCAL_WRITE);
			server.postReceive(1, inbox);
			connect(client, server);
			client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.registerPattern(99_999, 7))));
			assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			Completion received = server.receives.next();
			assertThat(received.byteLength()).isEqualTo(99_999);
			for (int i = 0; i < 99_999; i++) {
				assertThat(inbox.buffer().get(i)).isEqualTo((byte) (7 + i));
			}
		}
	}

	@Test
	void readsBeyondThePeersIrdWaitTheirTurn() throws Exception {
		RdmaProviderConfig oneInbound = RdmaProviderConfig.defaults().with(SiwSettings.IRD, "1");
		try (RdmaProvider a = RdmaProviders.open("siw", oneInbound); RdmaProvider b = RdmaProviders.open("siw")) {
			Endpoint server = new Endpoint(a, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(b, null, DEADLINE, UnaryOperator.identity());
			connect(client, server);
			MemoryRegion source = server.registerPattern(64 * 1024, 3, REMOTE_READ);
			MemoryRegion sink = client.register(64 * 1024, 0, LOCAL_WRITE);
			// The server advertised IRD 1 (RFC 6581), so the client has one Read in flight at a
			// time; had it sent more, the server would have terminated the connection.
			for (int i = 0; i < 16; i++) {
				client.qp.postSend(SendWorkRequest.rdmaRead(i, source.remoteAddress(i * 4096),
						ScatterGatherEntry.of(sink, i * 4096, 4096)));
			}
			assertThat(client.sends.next(16)).extracting(Completion::status).containsOnly(CompletionStatus.SUCCESS);
			assertPattern(sink.buffer(), 64 * 1024, 3);
			assertThat(client.connection.isConnected()).isTrue();
		}
	}

	@Test
	void hostNamesAreResolvedAndUnknownOnesRefused() throws Exception {
		try (RdmaProvider a = RdmaProviders.open("siw"); RdmaProvider b = RdmaProviders.open("siw")) {
			Endpoint server = new Endpoint(a, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(b, null, DEADLINE, UnaryOperator.identity());
			CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
			try (RdmaListener listener = a.listen(InetSocketAddress.createUnresolved("localhost", 0),
					(request) -> accepted.complete(request.accept(server.qp, PrivateData.EMPTY, server.events)))) {
				client.connection = b.connect(client.qp,
						ConnectParameters.to(InetSocketAddress.createUnresolved("localhost", listener.localAddress().getPort())))
					.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				assertThat(accepted.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).isConnected()).isTrue();
			}
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.isThrownBy(() -> a.listen(InetSocketAddress.createUnresolved("no-such-host.invalid", 0), (request) -> {
				}))
				.withMessageContaining("does not resolve");
		}
	}

	@Test
	void terminateErrorsMapToTheInitiatorsCompletionStatus() {
		assertThat(SiwConnection.statusFor(TerminateMessage.of(TerminateError.RDMAP_INVALID_STAG)))
			.isEqualTo(CompletionStatus.REM_ACCESS_ERR);
		assertThat(SiwConnection.statusFor(TerminateMessage.of(TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION)))
			.isEqualTo(CompletionStatus.REM_ACCESS_ERR);
		assertThat(SiwConnection.statusFor(TerminateMessage.of(TerminateError.DDP_UNTAGGED_INVALID_MSN_NO_BUFFER)))
			.isEqualTo(CompletionStatus.RNR_RETRY_EXC_ERR);
		assertThat(SiwConnection.statusFor(TerminateMessage.of(TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG)))
			.isEqualTo(CompletionStatus.REM_INV_REQ_ERR);
		assertThat(SiwConnection.statusFor(TerminateMessage.of(TerminateError.MPA_CRC_ERROR)))
			.isEqualTo(CompletionStatus.REM_OP_ERR);
		assertThat(SiwConnection.statusFor(TerminateMessage.of(TerminateError.RDMAP_LOCAL_CATASTROPHIC)))
			.isEqualTo(CompletionStatus.REM_OP_ERR);
	}

	@Test
	void settingsAreValidated() {
		assertThat(SiwSettings.defaults().ird()).isEqualTo(32);
		assertThat(SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.CRC, "require")).crcPolicy())
			.isEqualTo(io.rpcrdma.verbs.siw.wire.CrcPolicy.REQUIRE);
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.CRC, "maybe")))
			.withMessageContaining(SiwSettings.CRC);
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.ORD, "0")))
			.withMessageContaining(SiwSettings.ORD);
		assertThat(SiwSettings.defaults().callerReceives()).isTrue();
		assertThat(SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.CALLER_RECEIVES, "false"))
			.callerReceives()).isFalse();
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.CALLER_RECEIVES, "yes")))
			.withMessageContaining(SiwSettings.CALLER_RECEIVES);
		assertThat(SiwSettings.defaults().callerSpin()).isEqualTo((Runtime.getRuntime().availableProcessors() > 1)
				? java.time.Duration.ofNanos(SiwSettings.DEFAULT_CALLER_SPIN_MICROS * 1000L) : java.time.Duration.ZERO);
		assertThat(SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.CALLER_SPIN_MICROS, "0")).callerSpin())
			.isZero();
		assertRefused(SiwSettings.CALLER_SPIN_MICROS, "-1", "1001");
		assertThat(SiwSettings.defaults().ioPoll()).isEqualTo(SiwSettings.defaults().callerSpin());
		assertThat(SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.IO_POLL_MICROS, "20")).ioPoll())
			.isEqualTo(java.time.Duration.ofNanos(20_000));
		assertRefused(SiwSettings.IO_POLL_MICROS, "-1", "1001");
		assertThat(SiwSettings.defaults().fpduTimeout())
			.isEqualTo(java.time.Duration.ofMillis(SiwSettings.DEFAULT_FPDU_TIMEOUT_MILLIS));
		assertRefused(SiwSettings.FPDU_TIMEOUT_MILLIS, "0", "-5");
		assertThat(SiwSettings.defaults().firstMessageNudge())
			.isEqualTo(java.time.Duration.ofMillis(SiwSettings.DEFAULT_FIRST_MESSAGE_NUDGE_MILLIS));
		assertThat(SiwSettings.from(RdmaProviderConfig.defaults().with(SiwSettings.FIRST_MESSAGE_NUDGE_MILLIS, "0"))
			.firstMessageNudge()).isZero();
		assertRefused(SiwSettings.FIRST_MESSAGE_NUDGE_MILLIS, "-1", "10001");
		assertThat(SiwSettings.MAX_MPA_PRIVATE_DATA).isLessThanOrEqualTo(io.rpcrdma.verbs.siw.wire.MpaCodec.SIW_MAX_PRIVATE_DATA_LENGTH);
	}

	/** Each value of the setting is refused with a message that names it. */
	private static void assertRefused(String key, String... values) {
		for (String bad : values) {
			org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
				.isThrownBy(() -> SiwSettings.from(RdmaProviderConfig.defaults().with(key, bad)))
				.withMessageContaining(key);
		}
	}

	private static void connect(Endpoint client, Endpoint server) throws Exception {
		CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
		try (RdmaListener listener = server.provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				(request) -> accepted.complete(request.accept(server.qp, PrivateData.EMPTY, server.events)))) {
			client.connection = client.provider
				.connect(client.qp, ConnectParameters.to(listener.localAddress()).withListener(client.events))
				.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			server.connection = accepted.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void assertPattern(ByteBuffer buffer, int size, int seed) {
		for (int i = 0; i < size; i++) {
			if (buffer.get(i) != (byte) (seed + i)) {
				throw new AssertionError("Byte " + i + " is " + buffer.get(i) + " but should be " + (byte) (seed + i));
			}
		}
	}

}
