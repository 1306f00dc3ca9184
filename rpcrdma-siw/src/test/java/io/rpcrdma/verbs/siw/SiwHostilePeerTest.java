package io.rpcrdma.verbs.siw;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.conformance.Completion;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Endpoint;
import io.rpcrdma.verbs.siw.wire.Fpdu;
import io.rpcrdma.verbs.siw.wire.FpduParser;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;
import io.rpcrdma.verbs.siw.wire.ReadRequest;
import io.rpcrdma.verbs.siw.wire.TerminateError;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;

/**
 * A hostile peer on a raw TCP socket completes the MPA exchange, then breaks the rules:
 * garbage, a too-short or truncated FPDU, an oversized Read Request, a wrong MSN, a bogus
 * STag, a Read Request beyond its region. Each time the provider answers with the Terminate
 * naming the error (RFC 5040 §4.8, codes of RFC 5040 §7, RFC 5041 §7, RFC 5044 §8) and closes
 * the connection; it places nothing outside its regions, keeps serving other connections,
 * and leaks no thread or registered region.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwHostilePeerTest {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final int REGION = 4096;

	private RdmaProvider provider;

	private ProtectionDomain pd;

	private MemoryRegion target;

	private RdmaListener listener;

	private final List<Endpoint> accepted = new CopyOnWriteArrayList<>();

	private final CompletableFuture<Endpoint> firstAccepted = new CompletableFuture<>();

	@BeforeEach
	void listen() {
		listenOn(RdmaProviders.open("siw"));
	}

	private void listenOn(RdmaProvider opened) {
		this.provider = opened;
		this.pd = this.provider.allocateProtectionDomain();
		this.target = this.pd.registerMemory(ByteBuffer.allocateDirect(REGION), Set.of(LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ));
		this.listener = this.provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), (request) -> {
			Endpoint server = new Endpoint(this.provider, this.pd, DEADLINE, UnaryOperator.identity());
			server.postReceive(1, server.register(64, 0, LOCAL_WRITE));
			this.accepted.add(server);
			server.connection = request.accept(server.qp, PrivateData.EMPTY, server.events);
			this.firstAccepted.complete(server);
		});
	}

	@AfterEach
	void close() {
		this.provider.close();
	}

	@Test
	void garbageAfterTheMpaExchangeIsTerminated() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			peer.write("GARBAGE!GARBAGE!GARBAGE!".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
			// 'GA' announces 18241 bytes; 'R' has DDP version 2 (RFC 5041 §5.1 requires 1).
			peer.assertTerminatedWith(TerminateError.DDP_UNTAGGED_INVALID_VERSION);
		}
	}

	@Test
	void anFpduShorterThanAnyDdpHeaderIsAFramingError() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			peer.write(new byte[] { 0, 5, 0x41, 0x43, 0, 0, 0, 0, 0, 0, 0, 0 });
			peer.assertTerminatedWith(TerminateError.MPA_FPDU_FRAMING_ERROR);
		}
	}

	@Test
	void aStreamEndingInsideAnFpduIsTerminated() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			ByteBuffer send = peer.fpdu((writer, out) -> writer.writeUntagged(out, true, RdmapOpcode.SEND, 0, 0, 1, 0,
					ByteBuffer.allocate(32), 0, 32));
			peer.write(java.util.Arrays.copyOf(send.array(), 20));
			peer.socket().shutdownOutput();
			peer.assertTerminatedWith(TerminateError.MPA_TCP_CONNECTION_LOST);
		}
	}

	@Test
	void anOversizedReadRequestIsTerminated() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			ByteBuffer out = ByteBuffer.allocate(80);
			// A Read Request must be exactly 46 bytes of ULPDU (RFC 5040 §4.4); this one claims 60.
			out.putShort((short) 60).put((byte) 0x41).put((byte) 0x41).putInt(0).putInt(1).putInt(1).putInt(0);
			out.putInt(0).putLong(0).putInt(64).putInt(this.target.stag()).putLong(this.target.address());
			out.put(new byte[14]).putInt(0);
			peer.write(java.util.Arrays.copyOf(out.array(), out.position()));
			peer.assertTerminatedWith(TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG);
		}
	}

	@Test
	void aWrongMsnIsTerminated() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			peer.write(peer.fpdu((writer, out) -> writer.writeUntagged(out, true, RdmapOpcode.SEND, 0, 0, 7, 0,
					ByteBuffer.allocate(8), 0, 8)).array());
			peer.assertTerminatedWith(TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE);
		}
		assertThat(this.accepted.get(0).receives.next().status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
	}

	@Test
	void sendsAndWritesCompleteOnceTheSocketTookThemWithoutAnyAnswerFromThePeer() throws Exception {
		// As Linux's siw (siw_qp_sq_proc): iWARP has no acknowledgement, so a signaled Send or
		// RDMA Write completes when TCP has taken it. This peer reads nothing until both
		// completed, and never answers anything.
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			Endpoint server = awaitAccepted();
			MemoryRegion note = server.register(8, 7);
			server.qp.postSend(SendWorkRequest.send(5, ScatterGatherEntry.of(note)));
			server.qp.postSend(SendWorkRequest.rdmaWrite(6, new RemoteAddress(0x1000, 0x1234), ScatterGatherEntry.of(note)));
			assertThat(server.sends.next(2)).extracting(Completion::wrId, Completion::status)
				.containsExactly(tuple(5L, CompletionStatus.SUCCESS), tuple(6L, CompletionStatus.SUCCESS));
			assertThat(peer.await(RdmapOpcode.SEND, false).payloadLength()).isEqualTo(8);
			assertThat(peer.await(RdmapOpcode.RDMA_WRITE, false).payloadLength()).isEqualTo(8);
			peer.write(peer.fpdu((writer, out) -> writer.writeUntagged(out, true, RdmapOpcode.SEND, 0, 0, 1, 0,
					ByteBuffer.allocate(8), 0, 8)).array());
			assertThat(server.receives.next().status()).as("the connection lives on").isEqualTo(CompletionStatus.SUCCESS);
		}
	}

	@Test
	void anRdmaWriteWithABogusStagIsTerminatedAndPlacesNothing() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			peer.write(peer.fpdu((writer, out) -> writer.writeTagged(out, true, RdmapOpcode.RDMA_WRITE,
					this.target.stag() ^ 0x01020300, this.target.address(), ByteBuffer.wrap(new byte[64]).put(0, (byte) 1), 0, 64))
				.array());
			TerminateMessage terminate = peer.assertTerminatedWith(TerminateError.DDP_TAGGED_INVALID_STAG);
			assertThat(terminate.ddpHeaderIncluded()).isTrue();
		}
		assertUntouched();
	}

	@Test
	void anRdmaWritePastTheRegionIsTerminatedAndPlacesNothing() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			byte[] ones = new byte[64];
			java.util.Arrays.fill(ones, (byte) 1);
			peer.write(peer.fpdu((writer, out) -> writer.writeTagged(out, true, RdmapOpcode.RDMA_WRITE,
					this.target.stag(), this.target.address() + REGION - 32, ByteBuffer.wrap(ones), 0, 64)).array());
			peer.assertTerminatedWith(TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION);
		}
		assertUntouched();
	}

	@Test
	void aReadRequestBeyondTheRegionIsTerminatedQuotingIt() throws Exception {
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			ReadRequest beyond = new ReadRequest(0x1234, 0, 128, this.target.stag(), this.target.address() + REGION - 64);
			peer.write(peer.fpdu((writer, out) -> writer.writeReadRequest(out, 1, beyond)).array());
			TerminateMessage terminate = peer.assertTerminatedWith(TerminateError.RDMAP_BASE_OR_BOUNDS_VIOLATION);
			assertThat(terminate.rdmapHeaderIncluded()).isTrue();
			assertThat(ReadRequest.decode(ByteBuffer.wrap(terminate.rdmapHeader()), 0)).isEqualTo(beyond);
		}
	}

	@Test
	void aPeerThatStopsInsideALargeTaggedSegmentIsTerminatedAtTheFpduTimeout() throws Exception {
		reopen(RdmaProviderConfig.defaults().with(SiwSettings.FPDU_TIMEOUT_MILLIS, "300"));
		MemoryRegion big = this.pd.registerMemory(ByteBuffer.allocateDirect(64 << 10), Set.of(LOCAL_WRITE, REMOTE_WRITE));
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			ByteBuffer write = peer.fpdu(60 << 10, (writer, out) -> writer.writeTagged(out, true, RdmapOpcode.RDMA_WRITE,
					big.stag(), big.address(), ByteBuffer.allocate(60 << 10), 0, 60 << 10));
			// The header and the first 4 KiB of a 60 KiB segment, then silence: the provider
			// places straight from the socket and must not wait for the rest for ever.
			long start = System.nanoTime();
			peer.write(java.util.Arrays.copyOf(write.array(), 4096));
			assertHonestConnectionWorks();

			peer.assertTerminatedWith(TerminateError.MPA_TCP_CONNECTION_LOST);
			assertTerminatedAtTheFpduTimeout(start);
		}
		Endpoint stalled = this.accepted.get(0);
		assertThat(stalled.receives.next().status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		assertThat(stalled.events.await(ConnectionEventType.ERROR).detail()).as("what to change")
			.contains(SiwSettings.FPDU_TIMEOUT_MILLIS);
	}

	@Test
	void aPeerThatStopsInsideASmallFpduIsTerminatedAtTheFpduTimeout() throws Exception {
		reopen(RdmaProviderConfig.defaults().with(SiwSettings.FPDU_TIMEOUT_MILLIS, "300"));
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			ByteBuffer send = peer.fpdu((writer, out) -> writer.writeUntagged(out, true, RdmapOpcode.SEND, 0, 0, 1, 0,
					ByteBuffer.allocate(48), 0, 48));
			long start = System.nanoTime();
			peer.write(java.util.Arrays.copyOf(send.array(), 24));
			assertHonestConnectionWorks();

			peer.assertTerminatedWith(TerminateError.MPA_TCP_CONNECTION_LOST);
			assertTerminatedAtTheFpduTimeout(start);
		}
		Endpoint stalled = this.accepted.get(0);
		assertThat(stalled.receives.next().status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		assertThat(stalled.events.await(ConnectionEventType.ERROR).detail()).contains(SiwSettings.FPDU_TIMEOUT_MILLIS);
	}

	/** Not before the 300 ms configured, nor much after on a busy machine. */
	private static void assertTerminatedAtTheFpduTimeout(long start) {
		java.time.Duration took = java.time.Duration.ofNanos(System.nanoTime() - start);
		assertThat(took).as("from the stall to the Terminate").isGreaterThanOrEqualTo(java.time.Duration.ofMillis(300))
			.isLessThan(java.time.Duration.ofMillis(300).plus(DEADLINE));
	}

	@Test
	void anRdmaWriteWhoseStagIsRetiredMidSegmentPlacesNothingMore() throws Exception {
		MemoryRegion big = this.pd.registerMemory(ByteBuffer.allocateDirect(64 << 10), Set.of(LOCAL_WRITE, REMOTE_WRITE));
		byte[] ones = new byte[60 << 10];
		java.util.Arrays.fill(ones, (byte) 1);
		try (HostilePeer peer = HostilePeer.connect(this.listener)) {
			ByteBuffer write = peer.fpdu(60 << 10, (writer, out) -> writer.writeTagged(out, true, RdmapOpcode.RDMA_WRITE,
					big.stag(), big.address(), ByteBuffer.wrap(ones), 0, ones.length));
			int first = 16 + (20 << 10);
			peer.write(java.util.Arrays.copyOf(write.array(), first));
			long deadline = System.nanoTime() + DEADLINE.toNanos();
			while (big.buffer().get((20 << 10) - 1) != 1) {
				assertThat(System.nanoTime()).as("the first 20 KiB placed").isLessThan(deadline);
				Thread.onSpinWait();
			}
			// The owner releases the memory (its call timed out, say): the STag is retired and
			// the memory may be given to another call at once.
			big.reregister();
			big.buffer().put(0, new byte[64 << 10]);

			peer.write(java.util.Arrays.copyOfRange(write.array(), first, write.position()));

			peer.assertTerminatedWith(TerminateError.DDP_TAGGED_INVALID_STAG);
		}
		for (int i = 0; i < (64 << 10); i++) {
			assertThat(big.buffer().get(i)).as("byte %d after the STag was retired", i).isZero();
		}
	}

	@Test
	void aReadResponseWhoseSourceIsRetiredMidResponseSendsZerosNotTheNextUsersData() throws Exception {
		int size = 16 << 20;
		ByteBuffer memory = ByteBuffer.allocateDirect(size);
		for (int i = 0; i < size; i++) {
			memory.put(i, (byte) 1);
		}
		MemoryRegion source = this.pd.registerMemory(memory, Set.of(REMOTE_READ));
		try (HostilePeer peer = HostilePeer.connect(this.listener, 64 << 10)) {
			peer.write(peer.fpdu((writer, out) -> writer.writeReadRequest(out, 1,
					new ReadRequest(0x5157_0002, 0, size, source.stag(), source.address()))).array());
			// Take the first MiB, then stop reading: the provider cannot have sent the rest, the
			// socket buffers being far smaller than the Response.
			ReadResponses responses = new ReadResponses(peer);
			responses.takeUntil(1 << 20);
			// The owner releases the memory while the peer is still reading it (its call timed
			// out, say), and the memory is given to the next call, which fills it.
			source.reregister();
			for (int i = 0; i < size; i++) {
				memory.put(i, (byte) 0x5E);
			}

			responses.takeUntil(size);

			assertThat(responses.received()).as("bytes of the Response").isEqualTo(size);
			assertThat(responses.secretBytes()).as("bytes of the next user's data that reached the peer").isZero();
		}
	}

	/** Collects the payload of the Read Responses a hostile peer receives. */
	private static final class ReadResponses {

		private final HostilePeer peer;

		private final FpduParser parser = new FpduParser(FpduParser.Config.of(false));

		private final Fpdu fpdu = new Fpdu();

		private final ByteBuffer buffer = ByteBuffer.allocate(256 << 10);

		private long received;

		private long secret;

		ReadResponses(HostilePeer peer) {
			this.peer = peer;
		}

		/** Reads until {@code total} bytes of Responses in all have come. */
		void takeUntil(long total) throws IOException {
			while (this.received < total) {
				int n = this.peer.input().read(this.buffer.array(), this.buffer.position(), this.buffer.remaining());
				assertThat(n).as("the provider's next bytes").isPositive();
				this.buffer.position(this.buffer.position() + n).flip();
				while (this.parser.next(this.buffer, this.fpdu)) {
					if (this.fpdu.opcode() == RdmapOpcode.RDMA_READ_RESPONSE) {
						ByteBuffer payload = this.fpdu.payload();
						for (int i = payload.position(); i < payload.limit(); i++) {
							if (payload.get(i) == 0x5E) {
								this.secret++;
							}
						}
						this.received += payload.remaining();
					}
				}
				this.buffer.compact();
			}
		}

		long received() {
			return this.received;
		}

		long secretBytes() {
			return this.secret;
		}

	}

	private void reopen(RdmaProviderConfig config) {
		this.provider.close();
		this.accepted.clear();
		this.provider = RdmaProviders.open("siw", config);
		listenOn(this.provider);
	}

	/** A second connection to the same provider sends a message and it is received. */
	private void assertHonestConnectionWorks() throws Exception {
		try (RdmaProvider other = RdmaProviders.open("siw")) {
			Endpoint client = new Endpoint(other, null, DEADLINE, UnaryOperator.identity());
			client.connection = other.connect(client.qp, ConnectParameters.to(this.listener.localAddress()).withTimeout(DEADLINE))
				.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.registerPattern(16, 5))));
			assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			Endpoint served = this.accepted.get(this.accepted.size() - 1);
			assertThat(served.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			client.connection.disconnect();
		}
	}

	@Test
	void afterHostilePeersTheProviderServesOthersAndLeaksNothing() throws Exception {
		int regionsBefore = this.pd.registeredRegionCount();
		for (int i = 0; i < 3; i++) {
			try (HostilePeer peer = HostilePeer.connect(this.listener)) {
				peer.write(peer.fpdu((writer, out) -> writer.writeTagged(out, true, RdmapOpcode.RDMA_WRITE, 0x0badbad0,
						0, ByteBuffer.allocate(8), 0, 8)).array());
				peer.assertTerminatedWith(TerminateError.DDP_TAGGED_INVALID_STAG);
			}
		}
		awaitNoConnectionThreads();
		try (RdmaProvider other = RdmaProviders.open("siw")) {
			Endpoint client = new Endpoint(other, null, DEADLINE, UnaryOperator.identity());
			client.connection = other.connect(client.qp, ConnectParameters.to(this.listener.localAddress()).withTimeout(DEADLINE))
				.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(client.registerPattern(16, 5))));
			assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			Endpoint served = this.accepted.get(this.accepted.size() - 1);
			assertThat(served.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);
			client.connection.disconnect();
		}
		for (Endpoint server : this.accepted) {
			server.qp.close();
		}
		awaitNoConnectionThreads();
		// Each accepted connection registered one receive buffer; nothing else was registered.
		assertThat(this.pd.registeredRegionCount()).isEqualTo(regionsBefore + this.accepted.size());
	}

	private Endpoint awaitAccepted() throws Exception {
		return this.firstAccepted.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
	}

	private void assertUntouched() {
		ByteBuffer memory = this.target.buffer();
		for (int i = 0; i < REGION; i++) {
			assertThat(memory.get(i)).as("byte %d of the target region", i).isZero();
		}
	}

	private static void awaitNoConnectionThreads() throws InterruptedException {
		long end = System.nanoTime() + DEADLINE.toNanos();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (thread.getName().startsWith("siw-rx") || thread.getName().startsWith("siw-tx")) {
				thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
				assertThat(thread.isAlive()).as("connection thread %s ended", thread.getName()).isFalse();
			}
		}
	}

}
