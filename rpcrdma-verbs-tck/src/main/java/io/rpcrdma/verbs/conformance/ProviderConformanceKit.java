package io.rpcrdma.verbs.conformance;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionQueueOverrunException;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectTimeoutException;
import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.ConnectionRequest;
import io.rpcrdma.verbs.InvalidWorkRequestException;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.ProviderCapabilities;
import io.rpcrdma.verbs.QueueFullException;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaException;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.RnrPolicy;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * The provider conformance kit: the semantics every RDMA provider must show (RFC 5666 §2,
 * verbs, RFC 5040 protection rules), as one abstract JUnit suite. A provider's test
 * extends it and says how to open a provider instance and where to listen:
 * <pre>{@code
 * class LoopbackProviderConformanceTest extends ProviderConformanceKit {
 *     protected RdmaProvider openProvider() { return RdmaProviders.open("loopback"); }
 *     protected InetSocketAddress listenAddress() { return InetSocketAddress.createUnresolved("kit", 0); }
 * }
 * }</pre>
 * Every test opens two provider instances (a "server" and a "client" host) and closes them
 * afterwards. Waits use latches and deadlines ({@link #deadline()}), never sleeps.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ProviderConformanceKit {

	/** The server-side provider of the current test. */
	protected RdmaProvider serverProvider;

	/** The client-side provider of the current test. */
	protected RdmaProvider clientProvider;

	/** Bytes left around the data of a placement test, which must stay as they were. */
	static final int GUARD = 100;

	private final List<RdmaProvider> opened = new ArrayList<>();

	/**
	 * Opens a new provider instance (one device / host).
	 * @return the provider
	 */
	protected abstract RdmaProvider openProvider();

	/**
	 * An address the server provider can listen on; port 0 for any free port.
	 * @return the listen address
	 */
	protected abstract InetSocketAddress listenAddress();

	/**
	 * How long to wait for anything that should happen.
	 * @return the deadline, generous for loaded machines
	 */
	protected Duration deadline() {
		return Duration.ofSeconds(10);
	}

	/**
	 * Whether a side's provider has every capability the SPI describes, as rpcrdma's software
	 * providers do: then the kit holds it to verbs' exact statuses and to seeing both ends of
	 * every failure, where real adapters reached through DiSNI show less (docs/interop.md).
	 * The two that iWARP's lack of acknowledgement takes away
	 * ({@link ProviderCapabilities#receiverNotReadyRetry()},
	 * {@link ProviderCapabilities#remoteErrorsAtInitiator()}, which rpcrdma's siw gives up as
	 * Linux's siw does) are checked where they matter, not here.
	 * @param side an endpoint
	 * @return {@code true} for a provider with {@link ProviderCapabilities#FULL} but perhaps
	 * those two
	 */
	protected static boolean seesEverything(Endpoint side) {
		ProviderCapabilities c = side.provider.capabilities();
		return c.requestPrivateDataVisible() && c.acceptPrivateDataVisible() && c.rejectPrivateDataVisible()
				&& c.remoteInvalidation() && c.connectionScopedRegions();
	}

	/**
	 * The most scatter/gather entries per work request the provider takes.
	 * @return 16 unless a provider takes fewer (DiSNI 2.1's queue pairs take 4)
	 */
	protected int maxScatterGatherEntries() {
		return 16;
	}

	@BeforeEach
	void openProviders() {
		this.serverProvider = open();
		this.clientProvider = open();
	}

	@AfterEach
	void closeProviders() {
		for (RdmaProvider provider : this.opened) {
			provider.close();
		}
		this.opened.clear();
	}

	// ---- memory registration ----------------------------------------------------------

	@Test
	void registeringAHeapBufferIsRefused() {
		ProtectionDomain pd = this.serverProvider.allocateProtectionDomain();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> pd.registerMemory(ByteBuffer.allocate(128), EnumSet.of(LOCAL_WRITE)))
			.withMessageContaining("direct");
	}

	@Test
	void remoteWriteAccessRequiresLocalWrite() {
		ProtectionDomain pd = this.serverProvider.allocateProtectionDomain();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> pd.registerMemory(ByteBuffer.allocateDirect(128), EnumSet.of(REMOTE_WRITE)))
			.withMessageContaining("LOCAL_WRITE");
	}

	@Test
	void aRegionCoversTheBufferFromPositionToLimitAndReportsItsAttributes() {
		ProtectionDomain pd = this.serverProvider.allocateProtectionDomain();
		ByteBuffer buffer = ByteBuffer.allocateDirect(256);
		buffer.position(16).limit(80);
		MemoryRegion region = pd.registerMemory(buffer, EnumSet.of(LOCAL_WRITE, REMOTE_READ));
		assertThat(region.length()).isEqualTo(64);
		assertThat(region.buffer().isDirect()).isTrue();
		assertThat(region.buffer().capacity()).isEqualTo(64);
		assertThat(region.access()).containsExactlyInAnyOrder(LOCAL_WRITE, REMOTE_READ);
		assertThat(region.protectionDomain()).isSameAs(pd);
		assertThat(region.rkey()).isEqualTo(region.stag());
		assertThat(region.remoteAddress(10)).isEqualTo(new RemoteAddress(region.address() + 10, region.stag()));
		assertThat(region.isValid()).isTrue();
		region.buffer().put(0, (byte) 42);
		assertThat(buffer.get(16)).isEqualTo((byte) 42);
	}

	@Test
	void stagsAreDistinctAndReregistrationRotatesThem() {
		ProtectionDomain pd = this.serverProvider.allocateProtectionDomain();
		Set<Integer> stags = new HashSet<>();
		List<MemoryRegion> regions = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			MemoryRegion region = pd.registerMemory(ByteBuffer.allocateDirect(64), EnumSet.of(REMOTE_READ));
			regions.add(region);
			assertThat(stags.add(region.stag())).as("STag of region %d is new", i).isTrue();
		}
		MemoryRegion region = regions.get(0);
		for (int i = 0; i < 50; i++) {
			region.invalidate();
			assertThat(region.isValid()).isFalse();
			int previous = region.stag();
			int next = region.reregister();
			assertThat(next).isNotEqualTo(previous).isEqualTo(region.stag());
			assertThat(region.isValid()).isTrue();
		}
	}

	@Test
	void deregisteringAndClosingTheProtectionDomainLeaveNoRegionRegistered() {
		ProtectionDomain pd = this.serverProvider.allocateProtectionDomain();
		List<MemoryRegion> regions = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			regions.add(pd.registerMemory(ByteBuffer.allocateDirect(32), EnumSet.of(LOCAL_WRITE)));
		}
		assertThat(pd.registeredRegionCount()).isEqualTo(100);
		for (int i = 0; i < 50; i++) {
			regions.get(i).deregister();
			regions.get(i).deregister();
		}
		assertThat(pd.registeredRegionCount()).isEqualTo(50);
		pd.close();
		assertThat(pd.isClosed()).isTrue();
		assertThat(pd.registeredRegionCount()).isZero();
		assertThat(regions).noneMatch(MemoryRegion::isRegistered).noneMatch(MemoryRegion::isValid);
		assertThatThrownBy(() -> pd.registerMemory(ByteBuffer.allocateDirect(32), EnumSet.of(LOCAL_WRITE)))
			.isInstanceOf(IllegalStateException.class);
	}

	// ---- Send / Receive ----------------------------------------------------------------

	@Test
	void sendsCompleteAtTheReceiverInPostingOrder() throws Exception {
		int count = 100;
		Link link = pair();
		MemoryRegion inbox = link.server.register(count * 8, 0, LOCAL_WRITE);
		link.server.postReceives(0, inbox, 8, count);
		connect(link);
		MemoryRegion outbox = link.client.register(count * 8, 0);
		for (int i = 0; i < count; i++) {
			outbox.buffer().putLong(i * 8, 1000 + i);
		}
		for (int i = 0; i < count; i++) {
			link.client.qp.postSend(SendWorkRequest.send(i, ScatterGatherEntry.of(outbox, i * 8, 8)));
			if (i % 64 == 63) {
				link.client.sends.next(64);
			}
		}
		List<Completion> received = link.server.receives.next(count);
		for (int i = 0; i < count; i++) {
			assertThat(received.get(i).wrId()).isEqualTo(i);
			assertThat(received.get(i).status()).isEqualTo(CompletionStatus.SUCCESS);
			assertThat(inbox.buffer().getLong(i * 8)).isEqualTo(1000 + i);
		}
	}

	@Test
	void largeScatterGatherListsAreGatheredAndScatteredInOrder() throws Exception {
		int entries = maxScatterGatherEntries();
		UnaryOperator<QueuePairAttributes> manySges = (a) -> a.withMaxSges(entries, entries);
		Link link = pair(manySges, manySges);
		int[] sendSizes = Arrays.copyOf(new int[] { 1, 4096, 3, 65536, 7, 100, 1000, 1 << 18, 5, 12345, 2, 4095, 64, 77777,
				9, 300000 }, entries);
		int total = Arrays.stream(sendSizes).sum();
		MemoryRegion source = link.client.registerPattern(total + 100, 5, LOCAL_WRITE);
		List<ScatterGatherEntry> gather = consecutive(source, sendSizes);
		// The receive is split differently, over as many separate regions.
		List<ScatterGatherEntry> scatter = new ArrayList<>();
		List<MemoryRegion> sinks = new ArrayList<>();
		int piece = total / entries + 1;
		for (int i = 0; i < entries; i++) {
			MemoryRegion sink = link.server.register(piece + 10, 0, LOCAL_WRITE);
			sinks.add(sink);
			scatter.add(ScatterGatherEntry.of(sink, 10, piece));
		}
		link.server.qp.postRecv(new ReceiveWorkRequest(1, scatter));
		connect(link);
		succeeds(link.client, new SendWorkRequest(2, SendOpcode.SEND, gather, null, 0, true));
		Completion received = link.server.receives.next();
		assertThat(received.status()).isEqualTo(CompletionStatus.SUCCESS);
		assertThat(received.byteLength()).isEqualTo(total);
		int seen = 0;
		for (MemoryRegion sink : sinks) {
			assertFilled(sink.buffer(), 0, 10, 0);
			int n = Math.min(piece, total - seen);
			assertPattern(sink.buffer(), 10, 10 + n, 5 + seen);
			seen += n;
		}

		// RDMA Write gathers from every entry; RDMA Read scatters into as many.
		MemoryRegion target = link.server.register(total, 0, LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ);
		succeeds(link.client, new SendWorkRequest(3, SendOpcode.RDMA_WRITE, gather,
				target.remoteAddress(0), 0, true));
		MemoryRegion readBack = link.client.register(total, 0, LOCAL_WRITE);
		List<ScatterGatherEntry> readScatter = consecutive(readBack, sendSizes);
		Completion read = succeeds(link.client, new SendWorkRequest(4, SendOpcode.RDMA_READ, readScatter,
				target.remoteAddress(0), 0, true));
		assertThat(read.byteLength()).isEqualTo(total);
		assertPattern(readBack.buffer(), 0, total, 5);
		// Checked after the Read: on iWARP the Write completed when the transport took it, and
		// the Read's Response proves it placed (RFC 5040 §5.5).
		assertPattern(target.buffer(), 0, total, 5);
	}

	@Test
	void anUnsignaledSendReportsNothingOnSuccess() throws Exception {
		Link link = pair();
		link.server.postReceive(1, link.server.register(64, 0, LOCAL_WRITE));
		link.server.postReceive(2, link.server.register(64, 0, LOCAL_WRITE));
		connect(link);
		MemoryRegion message = link.client.registerPattern(16, 0);
		link.client.qp.postSend(SendWorkRequest.send(10, ScatterGatherEntry.of(message)).unsignaled());
		link.client.qp.postSend(SendWorkRequest.send(20, ScatterGatherEntry.of(message)));
		// Completions of one queue pair arrive in order: had the first reported, it would come first.
		assertThat(link.client.sends.next().wrId()).isEqualTo(20);
		link.server.receives.next(2, CompletionStatus.SUCCESS);
	}

	@Test
	void aSendWaitsForAReceivePostedLaterWithinTheRnrPolicy() throws Exception {
		Link link = connected(UnaryOperator.identity(),
				(a) -> a.withRnrPolicy(new RnrPolicy(RnrPolicy.INFINITE, Duration.ofMillis(2))));
		MemoryRegion message = link.client.registerPattern(32, 9);
		if (!this.clientProvider.capabilities().receiverNotReadyRetry()) {
			// iWARP has no RNR retry: a Send that finds no receive ends the connection (RFC 5041 §7).
			link.client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(message)));
			assertConnectionFailed(link.client, link.server);
			return;
		}
		link.client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(message)));
		link.client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(message)));
		MemoryRegion inbox = link.server.register(32, 0, LOCAL_WRITE);
		link.server.postReceive(100, inbox);
		link.server.receives.expect(100, CompletionStatus.SUCCESS);
		assertPattern(inbox.buffer(), 0, 32, 9);
		link.server.postReceive(101, link.server.register(32, 0, LOCAL_WRITE));
		assertThat(link.server.receives.next().wrId()).isEqualTo(101);
		link.client.sends.next(2, CompletionStatus.SUCCESS);
		assertThat(link.client.connection.isConnected()).isTrue();
	}

	@Test
	void exhaustedRnrRetriesFailTheSendAndTheConnection() throws Exception {
		Link link = connected(UnaryOperator.identity(), (a) -> a.withRnrPolicy(new RnrPolicy(2, Duration.ofMillis(1))));
		MemoryRegion message = link.client.registerPattern(32, 0);
		link.client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(message)));
		link.client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(message)));
		Completion failed = link.client.sends.next();
		assertThat(failed.wrId()).isEqualTo(1);
		if (this.clientProvider.capabilities().receiverNotReadyRetry()) {
			assertThat(failed.status()).isEqualTo(CompletionStatus.RNR_RETRY_EXC_ERR);
			link.client.sends.expect(2, CompletionStatus.WR_FLUSH_ERR);
		}
		// Without RNR retry (iWARP) the Sends may complete before the peer's Terminate arrives.
		assertConnectionFailed(link.client, link.server);
	}

	@Test
	void aReceiveTooSmallIsALocalLengthErrorAtTheReceiverAndFailsTheConnection() throws Exception {
		Link link = pair();
		MemoryRegion inbox = link.server.register(64, 0, LOCAL_WRITE);
		link.server.qp.postRecv(ReceiveWorkRequest.of(5, ScatterGatherEntry.of(inbox, 0, 16)));
		link.server.qp.postRecv(ReceiveWorkRequest.of(6, ScatterGatherEntry.of(inbox, 16, 48)));
		connect(link);
		link.client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(link.client.registerPattern(32, 1))));
		Completion received = link.server.receives.next();
		assertThat(received.wrId()).isEqualTo(5);
		// Linux's Soft-RoCE reports it as a local queue pair operation error; the software
		// providers report what verbs says.
		assertThat(received.status()).isIn(seesEverything(link.server) ? List.of(CompletionStatus.LOC_LEN_ERR)
				: List.of(CompletionStatus.LOC_LEN_ERR, CompletionStatus.LOC_QP_OP_ERR));
		Completion sent = link.client.sends.next();
		if (this.clientProvider.capabilities().remoteErrorsAtInitiator()) {
			assertThat(sent.status()).isNotEqualTo(CompletionStatus.SUCCESS);
		}
		link.server.receives.expect(6, CompletionStatus.WR_FLUSH_ERR);
		assertFilled(inbox.buffer(), 16, 64, 0);
		assertConnectionFailed(link.client, link.server);
	}

	/**
	 * Send with Invalidate (RFC 5040 §6.10) naming a region the receiver advertised. Where the
	 * provider supports remote invalidation the STag dies and the receive reports it. Where it
	 * does not ({@link io.rpcrdma.verbs.ProviderCapabilities#remoteInvalidation()}, DiSNI on
	 * ibv_reg_mr regions) devices differ: Linux's siw applies it anyway, Soft-RoCE and InfiniBand
	 * refuse it and fail the connection. Either way the provider's view must match the device's:
	 * a receive that reports the invalidation leaves the region invalid and its STag refused, a
	 * refusal fails the connection and leaves the region valid.
	 */
	@Test
	void sendWithInvalidateInvalidatesTheStagAtTheReceiverOrIsRefusedAndTheRegionSaysWhich() throws Exception {
		boolean supported = this.serverProvider.capabilities().remoteInvalidation()
				&& this.clientProvider.capabilities().remoteInvalidation();
		Link link = pair();
		MemoryRegion chunk = link.server.registerPattern(128, 3, LOCAL_WRITE, REMOTE_READ);
		link.server.postReceive(1, link.server.register(64, 0, LOCAL_WRITE));
		connect(link);
		int stag = chunk.stag();
		link.client.qp.postSend(
				SendWorkRequest.sendWithInvalidate(9, stag, ScatterGatherEntry.of(link.client.registerPattern(8, 0))));
		Completion sent = link.client.sends.next();
		Completion received = (sent.status() == CompletionStatus.SUCCESS) ? link.server.receives.next() : null;
		if (!supported && (received == null || received.status() != CompletionStatus.SUCCESS)) {
			// Refused, at the sender (InfiniBand, RoCE) or at the receiver (iWARP's Terminate).
			assertConnectionFailed(link.client, link.server);
			assertThat(chunk.isValid()).as("a refused invalidation leaves the region valid").isTrue();
			return;
		}
		assertThat(sent.status()).isEqualTo(CompletionStatus.SUCCESS);
		assertThat(received.status()).isEqualTo(CompletionStatus.SUCCESS);
		if (supported) {
			assertThat(received.withInvalidate()).isTrue();
		}
		MemoryRegion sink = link.client.register(128, 0, LOCAL_WRITE);
		if (!received.withInvalidate()) {
			// Delivered as a plain Send: the region and its STag still work.
			assertThat(chunk.isValid()).isTrue();
			succeeds(link.client, SendWorkRequest.rdmaRead(10, new RemoteAddress(chunk.address(), stag),
					ScatterGatherEntry.of(sink)));
			assertPattern(sink.buffer(), 0, 128, 3);
			return;
		}
		assertThat(received.invalidatedStag()).isEqualTo(stag);
		assertThat(chunk.isValid()).isFalse();
		assertThat(chunk.isRegistered()).isTrue();
		assertRemoteAccessFails(link.client, link.server,
				SendWorkRequest.rdmaRead(10, new RemoteAddress(chunk.address(), stag), ScatterGatherEntry.of(sink)));
		assertFilled(sink.buffer(), 0, 128, 0);
	}

	@Test
	void sendWithInvalidateOfAnUnknownStagFailsTheConnection() throws Exception {
		Link link = pair();
		MemoryRegion chunk = link.server.register(128, 0, LOCAL_WRITE, REMOTE_READ);
		link.server.postReceive(1, link.server.register(64, 0, LOCAL_WRITE));
		connect(link);
		int bogus = unusedStag(chunk);
		link.client.qp.postSend(
				SendWorkRequest.sendWithInvalidate(9, bogus, ScatterGatherEntry.of(link.client.registerPattern(8, 0))));
		// Where the refusal shows depends on the device (the sender's completion on the software
		// providers, the receiver's on Soft-RoCE, a Terminate on iWARP): the connection fails.
		Completion sent = link.client.sends.next();
		// The sender's own completion carries it only on a software provider that reports remote
		// errors there (loopback): Soft-RoCE through DiSNI reports them at the initiator in
		// general, yet completes this Send and fails the receiver's side (the lab, rxe0).
		if (seesEverything(link.client) && link.client.provider.capabilities().remoteErrorsAtInitiator()) {
			assertThat(sent.status()).isNotEqualTo(CompletionStatus.SUCCESS);
		}
		assertConnectionFailed(link.client, link.server);
		assertThat(chunk.isValid()).isTrue();
	}

	// ---- RDMA Write and Read ----------------------------------------------------------

	@Test
	void anRdmaWriteIsPlacedBeforeALaterSendIsDelivered() throws Exception {
		int rounds = 200;
		Link link = pair((a) -> a.withQueueDepths(16, 256), UnaryOperator.identity());
		MemoryRegion target = link.server.register(4096, 0, LOCAL_WRITE, REMOTE_WRITE);
		MemoryRegion inbox = link.server.register(rounds * 4, 0, LOCAL_WRITE);
		link.server.postReceives(0, inbox, 4, rounds);
		connect(link);
		List<MemoryRegion> payloads = new ArrayList<>();
		for (int seed = 0; seed < 8; seed++) {
			payloads.add(link.client.registerPattern(4096, seed * 31));
		}
		MemoryRegion note = link.client.register(4, 0);
		for (int i = 0; i < rounds; i++) {
			note.buffer().putInt(0, i);
			link.client.qp.postSend(SendWorkRequest
				.rdmaWrite(1000 + i, target.remoteAddress(0), ScatterGatherEntry.of(payloads.get(i % 8)))
				.unsignaled());
			link.client.qp.postSend(SendWorkRequest.send(i, ScatterGatherEntry.of(note)));
			Completion received = link.server.receives.next();
			assertThat(received.wrId()).isEqualTo(i);
			assertPattern(target.buffer(), 0, 4096, (i % 8) * 31);
			assertThat(link.client.sends.next().wrId()).isEqualTo(i);
		}
	}

	/**
	 * The operations and the sizes of their data: each from one byte up, a Send to a page
	 * (what a peer's receives hold), an RDMA Write or Read to a megabyte (what chunks carry).
	 * @return the operation and its size
	 */
	static Stream<Arguments> operations() {
		return Stream.of(Arguments.of(SendOpcode.SEND, 1), Arguments.of(SendOpcode.SEND, 64),
				Arguments.of(SendOpcode.SEND, 4096), Arguments.of(SendOpcode.RDMA_WRITE, 1),
				Arguments.of(SendOpcode.RDMA_WRITE, 1000), Arguments.of(SendOpcode.RDMA_WRITE, 1 << 20),
				Arguments.of(SendOpcode.RDMA_READ, 1), Arguments.of(SendOpcode.RDMA_READ, 4096),
				Arguments.of(SendOpcode.RDMA_READ, 1 << 20));
	}

	/**
	 * Each operation completes where verbs says, a Send at both ends and an RDMA Write or Read
	 * only at the side that posted it (RFC 5040 §5: tagged data raises no completion at the
	 * data sink), and places exactly its data: the bytes around it stay as they were.
	 * @param opcode the operation
	 * @param size the bytes it carries
	 * @throws Exception if the connection fails
	 */
	@ParameterizedTest(name = "{0} of {1} bytes")
	@MethodSource("io.rpcrdma.verbs.conformance.ProviderConformanceKit#operations")
	void eachOperationCompletesWhereVerbsSaysAndPlacesExactlyItsData(SendOpcode opcode, int size) throws Exception {
		Link link = pair();
		// A Send lands in this receive; after an RDMA Write or Read, the note that follows does.
		MemoryRegion inbox = link.server.register(size + 2 * GUARD, 0, LOCAL_WRITE);
		link.server.postReceive(7, inbox);
		boolean read = opcode == SendOpcode.RDMA_READ;
		MemoryRegion remote = read ? link.server.registerPattern(size + 2 * GUARD, 11, REMOTE_READ)
				: link.server.register(size + 2 * GUARD, 0, LOCAL_WRITE, REMOTE_WRITE);
		connect(link);
		MemoryRegion data = link.client.registerPattern(size, 1);
		MemoryRegion sink = link.client.register(size + 2 * GUARD, 0, LOCAL_WRITE);
		SendWorkRequest wr = switch (opcode) {
			case SEND -> SendWorkRequest.send(11, ScatterGatherEntry.of(data));
			case RDMA_WRITE -> SendWorkRequest.rdmaWrite(11, remote.remoteAddress(GUARD), ScatterGatherEntry.of(data));
			case RDMA_READ ->
				SendWorkRequest.rdmaRead(11, remote.remoteAddress(GUARD), ScatterGatherEntry.of(sink, GUARD, size));
			default -> throw new IllegalArgumentException("not one of the three operations: " + opcode);
		};
		Completion done = succeeds(link.client, wr);
		assertThat(done.opcode()).isEqualTo(CompletionOpcode.valueOf(opcode.name()));
		if (opcode == SendOpcode.SEND) {
			Completion received = link.server.receives.next();
			assertThat(received.wrId()).isEqualTo(7);
			assertThat(received.opcode()).isEqualTo(CompletionOpcode.RECV);
			assertThat(received.status()).isEqualTo(CompletionStatus.SUCCESS);
			assertThat(received.byteLength()).isEqualTo(size);
			assertThat(received.withInvalidate()).isFalse();
			assertThat(received.queuePairNumber()).isEqualTo(link.server.qp.queuePairNumber());
			assertPattern(inbox.buffer(), 0, size, 1);
			assertFilled(inbox.buffer(), size, size + 2 * GUARD, 0);
			return;
		}
		if (read) {
			assertThat(done.byteLength()).isEqualTo(size);
		}
		// The target saw no completion for the one-sided operation: its first is this Send's.
		succeeds(link.client, SendWorkRequest.send(12, ScatterGatherEntry.of(data, 0, 1)));
		Completion note = link.server.receives.next();
		assertThat(note.wrId()).isEqualTo(7);
		assertThat(note.byteLength()).isEqualTo(1);
		// Checked once the note arrived: on iWARP a Write completes when the transport took it
		// ({@link ProviderCapabilities#remoteErrorsAtInitiator()}), and only a later message
		// proves it placed (RFC 5040 §5.5: a Send is delivered after the Writes before it).
		ByteBuffer placed = read ? sink.buffer() : remote.buffer();
		assertFilled(placed, 0, GUARD, 0);
		assertPattern(placed, GUARD, GUARD + size, read ? 11 + GUARD : 1);
		assertFilled(placed, GUARD + size, size + 2 * GUARD, 0);
	}

	// ---- remote access protection -------------------------------------------------------

	/**
	 * An RDMA Read the target must refuse (RFC 5040 §7.2, remote protection errors) fails at the
	 * initiator, fails the connection, and reads nothing.
	 * @param read how the read oversteps what the target advertised
	 * @throws Exception if the connection fails
	 */
	@ParameterizedTest(name = "{0}")
	@EnumSource(ForbiddenRead.class)
	void aForbiddenRdmaReadIsARemoteAccessErrorAndReadsNothing(ForbiddenRead read) throws Exception {
		Link link = connected();
		RemoteAddress advertised = read.advertise(link.server);
		MemoryRegion sink = link.client.register(read.length(), 0, LOCAL_WRITE);
		assertRemoteAccessFails(link.client, link.server,
				SendWorkRequest.rdmaRead(1, advertised, ScatterGatherEntry.of(sink)));
		assertFilled(sink.buffer(), 0, read.length(), 0);
	}

	/**
	 * An RDMA Write the target must refuse fails at the initiator, fails the connection, and
	 * writes nothing, neither in the region nor around it.
	 * @param write how the write oversteps the target's region
	 * @throws Exception if the connection fails
	 */
	@ParameterizedTest(name = "{0}")
	@EnumSource(ForbiddenWrite.class)
	void aForbiddenRdmaWriteIsARemoteAccessErrorAndWritesNothing(ForbiddenWrite write) throws Exception {
		Link link = connected();
		ByteBuffer whole = ByteBuffer.allocateDirect(GUARD + ForbiddenWrite.REGION + GUARD);
		fill(whole, 0x5a);
		whole.position(GUARD).limit(GUARD + ForbiddenWrite.REGION);
		MemoryRegion target = link.server.pd.registerMemory(whole, write.access());
		MemoryRegion data = link.client.registerPattern(write.length(), 0);
		assertRemoteAccessFails(link.client, link.server,
				SendWorkRequest.rdmaWrite(1, write.address(target), ScatterGatherEntry.of(data)));
		whole.clear();
		assertFilled(whole, 0, whole.capacity(), 0x5a);
	}

	@Test
	void aStaleStagFailsAfterReregistrationWhileTheNewOneWorks() throws Exception {
		Link link = connected();
		MemoryRegion source = link.server.registerPattern(4096, 1, REMOTE_READ);
		RemoteAddress stale = source.remoteAddress(0);
		source.invalidate();
		int fresh = source.reregister();
		assertThat(fresh).isNotEqualTo(stale.stag());
		MemoryRegion sink = link.client.register(64, 0, LOCAL_WRITE);
		assertRemoteAccessFails(link.client, link.server, SendWorkRequest.rdmaRead(1, stale, ScatterGatherEntry.of(sink)));
		assertFilled(sink.buffer(), 0, 64, 0);

		Endpoint server2 = new Endpoint(this.serverProvider, link.server.pd, deadline(), UnaryOperator.identity());
		Endpoint client2 = endpoint(this.clientProvider);
		connect(client2, server2);
		MemoryRegion sink2 = client2.register(64, 0, LOCAL_WRITE);
		succeeds(client2, SendWorkRequest.rdmaRead(2, source.remoteAddress(0), ScatterGatherEntry.of(sink2)));
		assertPattern(sink2.buffer(), 0, 64, 1);
	}

	/**
	 * A region offered to one connection ({@link MemoryRegion#offerTo}, what the transport does
	 * for every chunk it advertises) is reached through that connection only, even by a peer
	 * of another connection of the same protection domain that knows its STag (RFC 5042 §5.1),
	 * where the provider says so; where it does not (no memory windows), the weaker rule of
	 * plain registration is what it shows.
	 * @throws Exception if a connection fails
	 */
	@Test
	void anOfferedRegionIsReachedOnlyThroughTheConnectionItWasOfferedToWhereTheProviderSaysSo() throws Exception {
		Link first = pair();
		first.client.postReceives(0, first.client.register(64, 0, LOCAL_WRITE), 8, 1);
		connect(first);
		Endpoint server2 = new Endpoint(this.serverProvider, first.server.pd, deadline(), UnaryOperator.identity());
		Endpoint client2 = endpoint(this.clientProvider);
		connect(client2, server2);
		MemoryRegion source = first.server.registerPattern(4096, 1, REMOTE_READ);
		RemoteAddress offered = advertise(first.server, first.client, source);
		MemoryRegion otherSink = client2.register(64, 0, LOCAL_WRITE);
		SendWorkRequest fromTheOther = SendWorkRequest.rdmaRead(1, offered, ScatterGatherEntry.of(otherSink));
		if (this.serverProvider.capabilities().connectionScopedRegions()) {
			assertRemoteAccessFails(client2, server2, fromTheOther);
			assertFilled(otherSink.buffer(), 0, 64, 0);
		}
		else {
			succeeds(client2, fromTheOther);
		}
		MemoryRegion ownSink = first.client.register(64, 0, LOCAL_WRITE);
		succeeds(first.client, SendWorkRequest.rdmaRead(2, offered, ScatterGatherEntry.of(ownSink)));
		assertPattern(ownSink.buffer(), 0, 64, 1);
	}

	/**
	 * What a requester does with a chunk once its call completed: it retires the STag it
	 * advertised (RFC 8166 §8.1), and once {@link MemoryRegion#retire}'s callback ran, a peer's
	 * RDMA Read with it is a remote access error; the region is then offered again, on another
	 * connection of the same domain, under a different STag that works. On a provider with
	 * memory windows the retirement is a local invalidation completing on the completion thread.
	 * @throws Exception if a connection fails
	 */
	@Test
	void aRetiredOfferIsARemoteAccessErrorAndTheRegionIsOfferedAgainUnderAFreshStag() throws Exception {
		Link link = pair();
		link.client.postReceives(0, link.client.register(64, 0, LOCAL_WRITE), 8, 1);
		connect(link);
		MemoryRegion source = link.server.registerPattern(4096, 1, REMOTE_READ);
		RemoteAddress offered = advertise(link.server, link.client, source);
		MemoryRegion sink = link.client.register(64, 0, LOCAL_WRITE);
		succeeds(link.client, SendWorkRequest.rdmaRead(1, offered, ScatterGatherEntry.of(sink)));
		assertPattern(sink.buffer(), 0, 64, 1);
		CountDownLatch retired = new CountDownLatch(1);
		source.retire(retired::countDown);
		assertThat(retired.await(deadline().toMillis(), TimeUnit.MILLISECONDS)).as("retirement done").isTrue();
		MemoryRegion staleSink = link.client.register(64, 0, LOCAL_WRITE);
		assertRemoteAccessFails(link.client, link.server,
				SendWorkRequest.rdmaRead(2, offered, ScatterGatherEntry.of(staleSink)));
		assertFilled(staleSink.buffer(), 0, 64, 0);

		Endpoint server2 = new Endpoint(this.serverProvider, link.server.pd, deadline(), UnaryOperator.identity());
		Endpoint client2 = endpoint(this.clientProvider);
		client2.postReceives(0, client2.register(64, 0, LOCAL_WRITE), 8, 1);
		connect(client2, server2);
		RemoteAddress again = advertise(server2, client2, source);
		assertThat(again.stag()).isNotEqualTo(offered.stag());
		MemoryRegion sink2 = client2.register(64, 0, LOCAL_WRITE);
		succeeds(client2, SendWorkRequest.rdmaRead(3, again, ScatterGatherEntry.of(sink2)));
		assertPattern(sink2.buffer(), 0, 64, 1);
	}

	/**
	 * The same for a Write chunk: once a retirement completed, a peer's RDMA Write with the
	 * STag it was offered is a remote access error and changes nothing in the memory.
	 * @throws Exception if a connection fails
	 */
	@Test
	void aRetiredOfferRefusesAPeersRdmaWriteAndKeepsTheMemory() throws Exception {
		Link link = pair();
		link.client.postReceives(0, link.client.register(64, 0, LOCAL_WRITE), 8, 1);
		link.server.postReceives(7, link.server.register(8, 0, LOCAL_WRITE), 8, 1);
		connect(link);
		MemoryRegion sink = link.server.register(4096, 0, LOCAL_WRITE, REMOTE_WRITE);
		RemoteAddress offered = advertise(link.server, link.client, sink);
		MemoryRegion data = link.client.registerPattern(64, 3);
		succeeds(link.client, SendWorkRequest.rdmaWrite(1, offered, ScatterGatherEntry.of(data)));
		// On iWARP a Write completes when the transport took it; a later Send's delivery proves
		// it placed (RFC 5040 §5.5: a Send is delivered after the Writes before it).
		succeeds(link.client, SendWorkRequest.send(3, ScatterGatherEntry.of(data, 0, 1)));
		assertThat(link.server.receives.next().wrId()).isEqualTo(7);
		assertPattern(sink.buffer(), 0, 64, 3);
		CountDownLatch retired = new CountDownLatch(1);
		sink.retire(retired::countDown);
		assertThat(retired.await(deadline().toMillis(), TimeUnit.MILLISECONDS)).as("retirement done").isTrue();
		MemoryRegion other = link.client.registerPattern(64, 9);
		assertRemoteAccessFails(link.client, link.server,
				SendWorkRequest.rdmaWrite(2, offered, ScatterGatherEntry.of(other)));
		assertPattern(sink.buffer(), 0, 64, 3);
	}

	/**
	 * Offers a region to the owner's connection and tells the peer its STag in a Send, as the
	 * transport does: work the owner posted before the Send (a memory window's bind) has
	 * executed when the peer receives it. The peer must have a receive posted.
	 */
	private RemoteAddress advertise(Endpoint owner, Endpoint peer, MemoryRegion region) {
		region.offerTo(owner.qp);
		RemoteAddress address = region.remoteAddress(0);
		MemoryRegion note = owner.register(8, 0);
		note.buffer().putInt(0, address.stag());
		owner.qp.postSend(SendWorkRequest.send(77, ScatterGatherEntry.of(note)));
		assertThat(owner.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
		assertThat(peer.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);
		return address;
	}

	@Test
	void aStagAdvertisedOnAnotherConnectionIsARemoteAccessError() throws Exception {
		Link first = connected();
		Link second = connected();
		MemoryRegion source = first.server.registerPattern(4096, 1, REMOTE_READ);
		MemoryRegion sink = second.client.register(64, 0, LOCAL_WRITE);
		assertRemoteAccessFails(second.client, second.server,
				SendWorkRequest.rdmaRead(1, source.remoteAddress(0), ScatterGatherEntry.of(sink)));
		assertFilled(sink.buffer(), 0, 64, 0);
		// On its own connection the STag works.
		MemoryRegion ownSink = first.client.register(64, 0, LOCAL_WRITE);
		succeeds(first.client, SendWorkRequest.rdmaRead(2, source.remoteAddress(0), ScatterGatherEntry.of(ownSink)));
		assertPattern(ownSink.buffer(), 0, 64, 1);
	}

	@Test
	void readingIntoLocalMemoryWithoutLocalWriteIsALocalProtectionError() throws Exception {
		Link link = connected();
		MemoryRegion source = link.server.registerPattern(64, 1, REMOTE_READ);
		MemoryRegion readOnly = link.client.register(64, 0);
		link.client.qp.postSend(SendWorkRequest.rdmaRead(1, source.remoteAddress(0), ScatterGatherEntry.of(readOnly)));
		assertThat(link.client.sends.next().status()).isEqualTo(CompletionStatus.LOC_PROT_ERR);
		assertFilled(readOnly.buffer(), 0, 64, 0);
		assertEntersErrorState(link.client);
	}

	@Test
	void aScatterGatherEntryOutsideItsRegionIsALocalProtectionError() throws Exception {
		Link link = connected();
		MemoryRegion small = link.client.registerPattern(64, 1);
		link.client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(small, 32, 33)));
		// Linux's siw reports it as a local queue pair operation error; the software providers
		// report what verbs says.
		assertThat(link.client.sends.next().status())
			.isIn(seesEverything(link.client) ? List.of(CompletionStatus.LOC_PROT_ERR)
				: List.of(CompletionStatus.LOC_PROT_ERR, CompletionStatus.LOC_QP_OP_ERR));
		assertEntersErrorState(link.client);
	}

	// ---- errors flush -----------------------------------------------------------------

	@Test
	void anErrorFlushesEveryOutstandingWorkRequestOnBothSides() throws Exception {
		Link link = pair();
		link.server.postReceives(100, 8, 64);
		link.client.postReceives(200, 4, 64);
		connect(link);
		MemoryRegion source = link.server.register(64, 0, REMOTE_READ);
		MemoryRegion sink = link.client.register(64, 0, LOCAL_WRITE);
		MemoryRegion message = link.client.registerPattern(8, 0);
		link.client.qp.postSend(SendWorkRequest.rdmaRead(1, new RemoteAddress(source.address(), unusedStag(source)),
				ScatterGatherEntry.of(sink)));
		for (int i = 2; i <= 6; i++) {
			link.client.qp.postSend(SendWorkRequest.send(i, ScatterGatherEntry.of(message)).unsignaled());
		}
		Completion failed = link.client.sends.next();
		assertThat(failed.wrId()).isEqualTo(1);
		assertThat(failed.status()).isIn(remoteErrorStatuses(link.client, SendWorkRequest.rdmaRead(1,
				new RemoteAddress(source.address(), 0), ScatterGatherEntry.of(sink))));
		boolean iwarp = !this.clientProvider.capabilities().remoteErrorsAtInitiator();
		if (!iwarp) {
			List<Completion> flushedSends = link.client.sends.next(5);
			assertThat(flushedSends).extracting(Completion::wrId).containsExactly(2L, 3L, 4L, 5L, 6L);
			assertThat(flushedSends).extracting(Completion::status).containsOnly(CompletionStatus.WR_FLUSH_ERR);
			assertThat(flushedSends).extracting(Completion::opcode).containsOnly(CompletionOpcode.SEND);
		}
		List<Completion> clientReceives = link.client.receives.next(4);
		assertThat(clientReceives).extracting(Completion::wrId).containsExactly(200L, 201L, 202L, 203L);
		assertThat(clientReceives).extracting(Completion::status).containsOnly(CompletionStatus.WR_FLUSH_ERR);
		List<Completion> serverReceives = link.server.receives.next(8);
		assertThat(serverReceives).extracting(Completion::wrId)
			.containsExactly(100L, 101L, 102L, 103L, 104L, 105L, 106L, 107L);
		assertThat(serverReceives).extracting(Completion::opcode).containsOnly(CompletionOpcode.RECV);
		if (iwarp) {
			// iWARP sends the Sends behind the Read without waiting for its response (RFC 5040
			// §5.5), so the first may land before the Terminate; the rest are flushed.
			assertThat(serverReceives).extracting(Completion::status)
				.isSubsetOf(CompletionStatus.SUCCESS, CompletionStatus.WR_FLUSH_ERR)
				.contains(CompletionStatus.WR_FLUSH_ERR);
		}
		else {
			assertThat(serverReceives).extracting(Completion::status).containsOnly(CompletionStatus.WR_FLUSH_ERR);
		}
		assertConnectionFailed(link.client, link.server);
	}

	@Test
	void workPostedAfterTheConnectionFailedIsFlushed() throws Exception {
		Link link = connected();
		MemoryRegion sink = link.client.register(64, 0, LOCAL_WRITE);
		assertRemoteAccessFails(link.client, link.server,
				SendWorkRequest.rdmaRead(1, new RemoteAddress(0, unusedStag(sink)), ScatterGatherEntry.of(sink)));
		link.client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(sink)));
		link.client.postReceive(3, sink);
		link.server.postReceive(4, link.server.register(64, 0, LOCAL_WRITE));
		link.client.sends.expect(2, CompletionStatus.WR_FLUSH_ERR);
		link.client.receives.expect(3, CompletionStatus.WR_FLUSH_ERR);
		link.server.receives.expect(4, CompletionStatus.WR_FLUSH_ERR);
	}

	@Test
	void disconnectFlushesBothSidesAndNotifiesBoth() throws Exception {
		Link link = pair();
		link.server.postReceives(0, 3, 64);
		link.client.postReceives(10, 2, 64);
		connect(link);
		link.client.connection.disconnect();
		link.client.events.await(ConnectionEventType.DISCONNECTED);
		link.server.events.await(ConnectionEventType.DISCONNECTED);
		link.server.receives.next(3, CompletionStatus.WR_FLUSH_ERR);
		link.client.receives.next(2, CompletionStatus.WR_FLUSH_ERR);
		assertThat(link.client.connection.isConnected()).isFalse();
		assertThat(link.server.connection.isConnected()).isFalse();
		assertThat(link.client.qp.state()).isEqualTo(QueuePairState.ERROR);
		assertThat(link.server.qp.state()).isEqualTo(QueuePairState.ERROR);
		assertThat(link.client.events.types()).doesNotContain(ConnectionEventType.ERROR);
	}

	@Test
	void closingAQueuePairDisconnectsThePeerAndFlushesItsWork() throws Exception {
		Link link = pair();
		link.server.postReceive(1, link.server.register(64, 0, LOCAL_WRITE));
		link.client.postReceive(2, link.client.register(64, 0, LOCAL_WRITE));
		connect(link);
		link.client.qp.close();
		assertThat(link.client.qp.state()).isEqualTo(QueuePairState.CLOSED);
		assertThat(link.client.receives.next().status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		link.server.events.await(ConnectionEventType.DISCONNECTED);
		assertThat(link.server.receives.next().status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		assertThatExceptionOfType(QueuePairStateException.class)
			.isThrownBy(() -> link.client.postReceive(3, link.client.register(64, 0, LOCAL_WRITE)));
		link.client.qp.close();
	}

	// ---- queue limits and states ------------------------------------------------------

	@Test
	void sendingBeforeTheConnectionIsEstablishedIsRefused() {
		Endpoint client = endpoint(this.clientProvider);
		MemoryRegion message = client.registerPattern(8, 0);
		assertThat(client.qp.state()).isEqualTo(QueuePairState.INIT);
		assertThatExceptionOfType(QueuePairStateException.class)
			.isThrownBy(() -> client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(message))))
			.withMessageContaining("not connected");
	}

	@Test
	void aQueuePairUsesOnlyOpenObjectsOfItsOwnProvider() {
		ProtectionDomain pd = this.clientProvider.allocateProtectionDomain();
		CompletionQueue cq = this.clientProvider.createCompletionQueue(16, null);
		CompletionQueue foreignCq = this.serverProvider.createCompletionQueue(16, null);
		ProtectionDomain foreignPd = this.serverProvider.allocateProtectionDomain();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.clientProvider.createQueuePair(QueuePairAttributes.of(foreignPd, cq)))
			.withMessageContaining("protection domain was not allocated by this");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.clientProvider.createQueuePair(QueuePairAttributes.of(pd, cq, foreignCq)))
			.withMessageContaining("receive completion queue was not created by this");
		cq.close();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.clientProvider.createQueuePair(QueuePairAttributes.of(pd, cq)))
			.withMessageContaining("send completion queue is closed");
		pd.close();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.clientProvider.createQueuePair(
					QueuePairAttributes.of(pd, this.clientProvider.createCompletionQueue(16, null))))
			.withMessageContaining("protection domain is closed");
	}

	@Test
	void queueDepthsAreEnforced() throws Exception {
		Link link = pair(UnaryOperator.identity(), (a) -> a.withQueueDepths(4, 2)
			.withRnrPolicy(new RnrPolicy(RnrPolicy.INFINITE, Duration.ofMillis(20))));
		MemoryRegion inbox = link.client.register(64, 0, LOCAL_WRITE);
		link.client.postReceive(1, inbox);
		link.client.postReceive(2, inbox);
		assertThatExceptionOfType(QueueFullException.class).isThrownBy(() -> link.client.postReceive(3, inbox))
			.withMessageContaining("maxReceiveWorkRequests");
		connect(link);
		if (!this.clientProvider.capabilities().receiverNotReadyRetry()) {
			// Without RNR retry nothing holds the send queue still: a Send without a receive ends
			// the connection (aSendWaitsForAReceivePostedLaterWithinTheRnrPolicy checks that).
			return;
		}
		// The link.server posts no receive, so the first Send waits and holds the send queue.
		MemoryRegion message = link.client.registerPattern(8, 0);
		for (int i = 0; i < 4; i++) {
			link.client.qp.postSend(SendWorkRequest.send(i, ScatterGatherEntry.of(message)));
		}
		assertThatExceptionOfType(QueueFullException.class)
			.isThrownBy(() -> link.client.qp.postSend(SendWorkRequest.send(4, ScatterGatherEntry.of(message))))
			.withMessageContaining("maxSendWorkRequests");
	}

	@Test
	void tooManyScatterGatherEntriesAreRefused() throws Exception {
		Endpoint client = endpoint(this.clientProvider, (a) -> a.withMaxSges(2, 1));
		MemoryRegion region = client.register(64, 0, LOCAL_WRITE);
		ScatterGatherEntry sge = ScatterGatherEntry.of(region, 0, 8);
		assertThatExceptionOfType(InvalidWorkRequestException.class)
			.isThrownBy(() -> client.qp.postRecv(ReceiveWorkRequest.of(1, sge, sge)))
			.withMessageContaining("maxReceiveSges");
		Endpoint server = endpoint(this.serverProvider);
		connect(client, server);
		assertThatExceptionOfType(InvalidWorkRequestException.class)
			.isThrownBy(() -> client.qp.postSend(SendWorkRequest.send(1, sge, sge, sge)))
			.withMessageContaining("maxSendSges");
	}

	// ---- completion queues ------------------------------------------------------------

	@Test
	void pollingFillsTheCallersHoldersInOrder() {
		CompletionQueue cq = flushedReceives(16, 3);
		WorkCompletion first = new WorkCompletion();
		WorkCompletion[] holders = { first, null, null, null };
		int polled = pollAtLeast(cq, holders, 3);
		assertThat(polled).isEqualTo(3);
		assertThat(holders[0]).isSameAs(first);
		for (int i = 0; i < 3; i++) {
			assertThat(holders[i].wrId()).isEqualTo(i);
			assertThat(holders[i].status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
			assertThat(holders[i].opcode()).isEqualTo(CompletionOpcode.RECV);
		}
		assertThat(cq.poll(holders)).isZero();
		assertThatIllegalStateException(cq::requestNotification);
	}

	@Test
	void theHandlerRunsOnceAfterArmingAndNeedsReArming() throws Exception {
		AtomicInteger calls = new AtomicInteger();
		Semaphore called = new Semaphore(0);
		ProtectionDomain pd = this.serverProvider.allocateProtectionDomain();
		CompletionQueue sendCq = this.serverProvider.createCompletionQueue(64, null);
		CompletionQueue recvCq = this.serverProvider.createCompletionQueue(64, (cq) -> {
			calls.incrementAndGet();
			called.release();
		});
		QueuePair qp = this.serverProvider.createQueuePair(QueuePairAttributes.of(pd, sendCq, recvCq));
		MemoryRegion inbox = pd.registerMemory(ByteBuffer.allocateDirect(64 * 3), EnumSet.of(LOCAL_WRITE));
		for (int i = 0; i < 3; i++) {
			qp.postRecv(ReceiveWorkRequest.of(i, ScatterGatherEntry.of(inbox, i * 64, 64)));
		}
		Endpoint client = endpoint(this.clientProvider);
		RdmaListener listener = this.serverProvider.listen(listenAddress(),
				(request) -> request.accept(qp, PrivateData.EMPTY, null));
		client.connection = await(this.clientProvider.connect(client.qp,
				ConnectParameters.to(listener.localAddress()).withTimeout(deadline())));
		MemoryRegion message = client.registerPattern(8, 0);
		WorkCompletion[] holders = new WorkCompletion[4];

		recvCq.requestNotification();
		client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(message)));
		assertThat(called.tryAcquire(deadline().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(pollAtLeast(recvCq, holders, 1)).isEqualTo(1);

		// Not re-armed: the second completion arrives without a call.
		client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(message)));
		assertThat(pollAtLeast(recvCq, holders, 1)).isEqualTo(1);
		assertThat(calls.get()).isEqualTo(1);

		recvCq.requestNotification();
		client.qp.postSend(SendWorkRequest.send(3, ScatterGatherEntry.of(message)));
		assertThat(called.tryAcquire(deadline().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		assertThat(calls.get()).isEqualTo(2);
		assertThat(pollAtLeast(recvCq, holders, 1)).isEqualTo(1);
		assertThat(holders[0].wrId()).as("the third posted receive").isEqualTo(2);
	}

	@Test
	void aCompletionQueueOverrunIsReportedNotSilent() {
		CompletionQueue cq = flushedReceives(2, 4);
		WorkCompletion[] holders = new WorkCompletion[8];
		long end = System.nanoTime() + deadline().toNanos();
		while (true) {
			try {
				cq.poll(holders);
			}
			catch (CompletionQueueOverrunException ex) {
				assertThat(ex).hasMessageContaining("capacity");
				return;
			}
			if (System.nanoTime() - end > 0) {
				fail("The completion queue of capacity 2 took 4 completions without reporting an overrun");
			}
			Thread.onSpinWait();
		}
	}

	// ---- connection manager -----------------------------------------------------------

	/**
	 * Private data travels as far as the providers say it can
	 * ({@link io.rpcrdma.verbs.ProviderCapabilities}): all of it where they carry it, and where
	 * they cannot (DiSNI 2.1 reads none), the connection still comes up and the side that cannot
	 * see it gets empty private data, never garbage.
	 */
	@Test
	void privateDataTravelsAsFarAsTheProvidersCarryIt() throws Exception {
		// 56 bytes is what any transport carries in a connection request (an InfiniBand or RoCE
		// REQ through rdma_cm; rdma_connect fails with EINVAL beyond it), and a provider that
		// cannot deliver private data still sends it.
		byte[] requestData = new byte[56];
		ThreadLocalRandom.current().nextBytes(requestData);
		PrivateData acceptData = PrivateData.of((byte) 9, (byte) 8, (byte) 7);
		PrivateData listenerSees = this.serverProvider.capabilities().requestPrivateDataVisible()
				? new PrivateData(requestData) : PrivateData.EMPTY;
		PrivateData requesterSees = this.clientProvider.capabilities().acceptPrivateDataVisible() ? acceptData
				: PrivateData.EMPTY;
		Link link = pair();
		AtomicReference<PrivateData> seenByServer = new AtomicReference<>();
		CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
		RdmaListener listener = this.serverProvider.listen(listenAddress(), (request) -> {
			seenByServer.set(request.privateData());
			accepted.complete(request.accept(link.server.qp, acceptData, link.server.events));
		});
		RdmaConnection connection = await(this.clientProvider.connect(link.client.qp,
				ConnectParameters.to(listener.localAddress())
					.withPrivateData(new PrivateData(requestData))
					.withListener(link.client.events)
					.withTimeout(deadline())));
		RdmaConnection serverSide = await(accepted);
		assertCarried(seenByServer.get(), listenerSees);
		assertCarried(serverSide.remotePrivateData(), listenerSees);
		assertCarried(connection.remotePrivateData(), requesterSees);
		assertCarried(link.client.events.await(ConnectionEventType.ESTABLISHED).privateData(), requesterSees);
		link.server.events.await(ConnectionEventType.ESTABLISHED);
		assertThat(connection.isConnected()).isTrue();
		assertThat(serverSide.isConnected()).isTrue();
		assertThat(connection.queuePair()).isSameAs(link.client.qp);
		assertThat(link.client.qp.state()).isEqualTo(QueuePairState.RTS);
		assertThat(link.server.qp.state()).isEqualTo(QueuePairState.RTS);
	}

	/**
	 * Private data arrived as sent: nothing where nothing is expected, else the bytes sent
	 * followed by nothing but zeros. A connection manager may pad what it delivers, and
	 * InfiniBand's and RoCE's do: their REQ, REP and REJ carry fixed-size private data fields
	 * (56, 196 and 148 bytes) that rdma_cm hands over whole, zero-filled beyond what was sent
	 * (librdmacm's rdma_accept(3): the private data received may be larger than sent). The
	 * software providers and iWARP's MPA (RFC 5044 §7.1) deliver the exact bytes.
	 */
	private static void assertCarried(PrivateData seen, PrivateData sent) {
		if (sent.isEmpty()) {
			assertThat(seen).isEqualTo(PrivateData.EMPTY);
			return;
		}
		byte[] bytes = seen.bytes();
		assertThat(bytes.length).as("private data length").isGreaterThanOrEqualTo(sent.length());
		assertThat(Arrays.copyOf(bytes, sent.length())).as("private data sent").isEqualTo(sent.bytes());
		assertThat(Arrays.copyOfRange(bytes, sent.length(), bytes.length)).as("padding after the private data sent")
			.isEqualTo(new byte[bytes.length - sent.length()]);
	}

	@Test
	void thePassiveSideMaySendAsSoonAsItHasAccepted() throws Exception {
		Link link = pair();
		MemoryRegion inbox = link.client.register(64, 0, LOCAL_WRITE);
		link.client.postReceive(1, inbox);
		MemoryRegion greeting = link.server.registerPattern(16, 4);
		RdmaListener listener = this.serverProvider.listen(listenAddress(), (request) -> {
			link.server.connection = request.accept(link.server.qp, PrivateData.EMPTY, link.server.events);
			link.server.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(greeting)));
		});
		link.client.connection = await(connecting(link.client, listener));
		Completion received = link.client.receives.next();
		assertThat(received.status()).isEqualTo(CompletionStatus.SUCCESS);
		assertThat(received.byteLength()).isEqualTo(16);
		assertPattern(inbox.buffer(), 0, 16, 4);
		assertThat(link.server.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
		assertThat(link.client.events.types()).startsWith(ConnectionEventType.ESTABLISHED);
	}

	/**
	 * A rejection reaches the requester as a rejection, with the listener's private data where
	 * the provider carries it and none where it cannot (DiSNI 2.1 has no rdma_reject and
	 * rejects by destroying the request's id: a DiSNI pitfall under real connection-manager
	 * events).
	 */
	@Test
	void aRejectionReachesTheRequesterWithWhatPrivateDataItsProviderCarries() throws Exception {
		PrivateData reason = PrivateData.of((byte) 1, (byte) 2, (byte) 3);
		PrivateData requesterSees = this.clientProvider.capabilities().rejectPrivateDataVisible() ? reason
				: PrivateData.EMPTY;
		Endpoint client = endpoint(this.clientProvider);
		RdmaListener listener = this.serverProvider.listen(listenAddress(), (request) -> request.reject(reason));
		Throwable failure = awaitFailure(connecting(client, listener));
		assertThat(failure).isInstanceOf(ConnectionRejectedException.class);
		assertCarried(((ConnectionRejectedException) failure).privateData(), requesterSees);
		ConnectionEvent rejected = client.events.await(ConnectionEventType.REJECTED);
		assertCarried(rejected.privateData(), requesterSees);
		assertThat(client.qp.state()).isEqualTo(QueuePairState.ERROR);
	}

	@Test
	void connectingWhereNothingListensFailsWithinTheTimeout() {
		RdmaListener listener = this.serverProvider.listen(listenAddress(), (request) -> {
		});
		InetSocketAddress vacated = listener.localAddress();
		listener.close();
		Endpoint client = endpoint(this.clientProvider);
		Throwable failure = awaitFailure(this.clientProvider.connect(client.qp,
				ConnectParameters.to(vacated).withListener(client.events).withTimeout(Duration.ofSeconds(2))));
		assertThat(failure).isInstanceOf(ConnectionFailedException.class);
		assertThat(((ConnectionFailedException) failure).eventType()).isIn(ConnectionEventType.CONNECT_ERROR,
				ConnectionEventType.REJECTED, ConnectionEventType.TIMEOUT);
		assertThat(client.events.types()).contains(((ConnectionFailedException) failure).eventType());
	}

	@Test
	void aConnectTimesOutWhenTheListenerNeverAnswers() throws Exception {
		CompletableFuture<ConnectionRequest> unanswered = new CompletableFuture<>();
		RdmaListener listener = this.serverProvider.listen(listenAddress(), unanswered::complete);
		Endpoint client = endpoint(this.clientProvider);
		Throwable failure = awaitFailure(this.clientProvider.connect(client.qp, ConnectParameters
			.to(listener.localAddress())
			.withListener(client.events)
			.withTimeout(Duration.ofMillis(300))));
		assertThat(failure).isInstanceOf(ConnectTimeoutException.class);
		client.events.await(ConnectionEventType.TIMEOUT);
		Endpoint server = endpoint(this.serverProvider);
		if (seesEverything(server)) {
			// The software providers know the requester gave up: the late accept fails at once.
			assertThatExceptionOfType(ConnectionFailedException.class)
				.isThrownBy(() -> await(unanswered).accept(server.qp, PrivateData.EMPTY, null));
			assertThat(server.qp.state()).as("a failed accept leaves the queue pair usable").isEqualTo(QueuePairState.INIT);
			return;
		}
		RdmaConnection late;
		try {
			late = await(unanswered).accept(server.qp, PrivateData.EMPTY, server.events);
		}
		catch (ConnectionFailedException expected) {
			// DiSNI binds the queue pair to the request's id before rdma_accept, so there a failed
			// accept leaves it in error, to be replaced; elsewhere it stays usable.
			assertThat(server.qp.state()).as("a failed accept leaves the queue pair usable or in error")
				.isIn(QueuePairState.INIT, QueuePairState.ERROR);
			return;
		}
		// Over iWARP's connection manager (Linux's iw_cm through DiSNI) nothing tells the listener
		// the requester gave up, and the accept goes out; the requester, gone, ends it at once.
		server.events.await(ConnectionEventType.DISCONNECTED);
		assertThat(late.isConnected()).isFalse();
	}

	@Test
	void listeningOnPortZeroPicksAFreePortAndABusyAddressIsRefused() {
		RdmaListener first = this.serverProvider.listen(listenAddress(), (request) -> {
		});
		RdmaListener second = this.serverProvider.listen(listenAddress(), (request) -> {
		});
		assertThat(first.localAddress().getPort()).isNotZero();
		assertThat(second.localAddress().getPort()).isNotZero().isNotEqualTo(first.localAddress().getPort());
		assertThatExceptionOfType(RdmaException.class)
			.isThrownBy(() -> this.clientProvider.listen(first.localAddress(), (request) -> {
			}));
		first.close();
		second.close();
	}

	/**
	 * A DiSNI pitfall under real connection-manager events: a request still unanswered when its
	 * listener closes. The listener's close turns the requester away, and a late accept fails
	 * at once instead of connecting a queue pair nobody listens for.
	 */
	@Test
	void acceptingARequestWhoseListenerClosedFailsAndTheRequesterIsTurnedAway() throws Exception {
		CompletableFuture<ConnectionRequest> pending = new CompletableFuture<>();
		RdmaListener listener = this.serverProvider.listen(listenAddress(), pending::complete);
		Link link = pair();
		CompletableFuture<RdmaConnection> connecting = connecting(link.client, listener);
		ConnectionRequest request = await(pending);
		listener.close();
		assertThatExceptionOfType(RdmaException.class)
			.isThrownBy(() -> request.accept(link.server.qp, PrivateData.EMPTY, link.server.events));
		Throwable failure = awaitFailure(connecting);
		assertThat(failure).isInstanceOf(ConnectionFailedException.class);
		assertThat(link.client.qp.state()).isEqualTo(QueuePairState.ERROR);
		assertThat(link.server.qp.state()).isNotEqualTo(QueuePairState.RTS);
	}

	@Test
	void aQueuePairConnectsOnlyOnce() throws Exception {
		Link link = connected();
		RdmaListener listener = this.serverProvider.listen(listenAddress(), (request) -> {
		});
		assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> this.clientProvider.connect(link.client.qp,
				ConnectParameters.to(listener.localAddress()).withTimeout(deadline())));
	}

	@Test
	void privateDataIsBounded() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PrivateData(new byte[PrivateData.MAX_LENGTH + 1]))
			.withMessageContaining(String.valueOf(PrivateData.MAX_LENGTH));
	}

	// ---- concurrency ------------------------------------------------------------------

	@Test
	void manyConnectionsCarryTrafficConcurrently() throws Exception {
		int connections = 8;
		int messages = 200;
		List<Link> links = new ArrayList<>();
		List<MemoryRegion> inboxes = new ArrayList<>();
		for (int c = 0; c < connections; c++) {
			Endpoint server = endpoint(this.serverProvider, (a) -> a.withQueueDepths(16, messages));
			Endpoint client = endpoint(this.clientProvider, (a) -> a.withQueueDepths(messages, 16));
			MemoryRegion inbox = server.register(messages * 8, 0, LOCAL_WRITE);
			server.postReceives(0, inbox, 8, messages);
			connect(client, server);
			links.add(new Link(client, server));
			inboxes.add(inbox);
		}
		runConcurrently(connections, (c) -> {
			Endpoint client = links.get(c).client;
			MemoryRegion outbox = client.register(messages * 8, 0);
			for (int i = 0; i < messages; i++) {
				outbox.buffer().putInt(i * 8, c);
				outbox.buffer().putInt(i * 8 + 4, i);
				client.qp.postSend(SendWorkRequest.send(i, ScatterGatherEntry.of(outbox, i * 8, 8)));
			}
			client.sends.next(messages, CompletionStatus.SUCCESS);
		});
		for (int c = 0; c < connections; c++) {
			List<Completion> received = links.get(c).server.receives.next(messages);
			for (int i = 0; i < messages; i++) {
				assertThat(received.get(i).wrId()).isEqualTo(i);
				assertThat(received.get(i).status()).isEqualTo(CompletionStatus.SUCCESS);
				assertThat(inboxes.get(c).buffer().getInt(i * 8)).isEqualTo(c);
				assertThat(inboxes.get(c).buffer().getInt(i * 8 + 4)).isEqualTo(i);
			}
		}
	}

	@Test
	void manyThreadsPostingToOneQueuePairLoseNothing() throws Exception {
		int threads = 4;
		int perThread = 100;
		int total = threads * perThread;
		Link link = pair((a) -> a.withQueueDepths(16, total), (a) -> a.withQueueDepths(total, 16));
		MemoryRegion inbox = link.server.register(total * 8, 0, LOCAL_WRITE);
		link.server.postReceives(0, inbox, 8, total);
		connect(link);
		MemoryRegion outbox = link.client.register(total * 8, 0);
		runConcurrently(threads, (t) -> {
			for (int i = 0; i < perThread; i++) {
				int slot = t * perThread + i;
				outbox.buffer().putInt(slot * 8, t);
				outbox.buffer().putInt(slot * 8 + 4, i);
				link.client.qp.postSend(SendWorkRequest.send(slot, ScatterGatherEntry.of(outbox, slot * 8, 8)));
			}
		});
		link.client.sends.next(total, CompletionStatus.SUCCESS);
		List<Completion> received = link.server.receives.next(total);
		int[] lastSeen = new int[threads];
		Arrays.fill(lastSeen, -1);
		for (int i = 0; i < total; i++) {
			assertThat(received.get(i).status()).isEqualTo(CompletionStatus.SUCCESS);
			int thread = inbox.buffer().getInt(i * 8);
			int sequence = inbox.buffer().getInt(i * 8 + 4);
			assertThat(sequence).as("per-thread posting order").isEqualTo(lastSeen[thread] + 1);
			lastSeen[thread] = sequence;
		}
		assertThat(lastSeen).containsOnly(perThread - 1);
	}

	@Test
	void bidirectionalBulkReadsOnOneConnectionDoNotDeadlock() throws Exception {
		int size = 1 << 20;
		int reads = 32;
		Link link = connected((a) -> a.withQueueDepths(reads, 16), (a) -> a.withQueueDepths(reads, 16));
		MemoryRegion serverSource = link.server.registerPattern(size, 1, REMOTE_READ);
		MemoryRegion clientSource = link.client.registerPattern(size, 2, REMOTE_READ);
		MemoryRegion serverSink = link.server.register(size, 0, LOCAL_WRITE);
		MemoryRegion clientSink = link.client.register(size, 0, LOCAL_WRITE);
		List<Endpoint> sides = List.of(link.client, link.server);
		List<MemoryRegion> sinks = List.of(clientSink, serverSink);
		List<MemoryRegion> sources = List.of(serverSource, clientSource);
		runConcurrently(2, (s) -> {
			Endpoint side = sides.get(s);
			for (int i = 0; i < reads; i++) {
				side.qp.postSend(SendWorkRequest.rdmaRead(i, sources.get(s).remoteAddress(0),
						ScatterGatherEntry.of(sinks.get(s))));
			}
			side.sends.next(reads, CompletionStatus.SUCCESS);
		});
		assertPattern(clientSink.buffer(), 0, size, 1);
		assertPattern(serverSink.buffer(), 0, size, 2);
	}

	// ---- teardown ---------------------------------------------------------------------

	@Test
	void closingProvidersStopsTheirThreadsAndReleasesEverything() throws Exception {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		RdmaProvider serverSide = openProvider();
		RdmaProvider clientSide = openProvider();
		Endpoint server = new Endpoint(serverSide, null, deadline(), UnaryOperator.identity());
		Endpoint client = new Endpoint(clientSide, null, deadline(), UnaryOperator.identity());
		MemoryRegion inbox = server.register(64, 0, LOCAL_WRITE);
		server.postReceive(1, inbox);
		server.postReceive(2, inbox);
		MemoryRegion source = server.registerPattern(4096, 1, REMOTE_READ);
		connect(client, server);
		MemoryRegion sink = client.register(4096, 0, LOCAL_WRITE);
		client.qp.postSend(SendWorkRequest.rdmaRead(1, source.remoteAddress(0), ScatterGatherEntry.of(sink)));
		client.qp.postSend(SendWorkRequest.send(2, ScatterGatherEntry.of(sink, 0, 64)));
		client.sends.next(2, CompletionStatus.SUCCESS);
		assertThat(server.receives.next().status()).isEqualTo(CompletionStatus.SUCCESS);

		clientSide.close();
		serverSide.close();
		clientSide.close();

		assertThat(serverSide.isClosed()).isTrue();
		assertThat(clientSide.isClosed()).isTrue();
		assertThat(List.of(inbox, source, sink)).noneMatch(MemoryRegion::isRegistered);
		assertThat(server.pd.registeredRegionCount()).isZero();
		assertThat(client.pd.registeredRegionCount()).isZero();
		assertThat(server.pd.isClosed()).isTrue();
		assertThat(client.qp.state()).isEqualTo(QueuePairState.CLOSED);
		assertThat(server.qp.state()).isEqualTo(QueuePairState.CLOSED);
		assertThat(List.of(server.sendCq, server.recvCq, client.sendCq, client.recvCq)).allMatch(CompletionQueue::isClosed);
		assertThat(server.receives.next().status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		assertThatThrownBy(serverSide::allocateProtectionDomain).isInstanceOf(IllegalStateException.class);
		assertNoThreadsLeftBeyond(before);
	}

	// ---- helpers ----------------------------------------------------------------------

	/**
	 * Opens a provider that is closed after the test.
	 * @return the provider
	 */
	protected RdmaProvider open() {
		RdmaProvider provider = openProvider();
		this.opened.add(provider);
		return provider;
	}

	/**
	 * An endpoint with default attributes.
	 * @param provider the provider
	 * @return the endpoint
	 */
	protected Endpoint endpoint(RdmaProvider provider) {
		return endpoint(provider, UnaryOperator.identity());
	}

	/**
	 * An endpoint with adjusted attributes.
	 * @param provider the provider
	 * @param customizer adjusts the queue pair attributes
	 * @return the endpoint
	 */
	protected Endpoint endpoint(RdmaProvider provider, UnaryOperator<QueuePairAttributes> customizer) {
		return new Endpoint(provider, null, deadline(), customizer);
	}

	/**
	 * Connects two endpoints (the server listens, accepts with its queue pair, stops
	 * listening).
	 * @param client the active side
	 * @param server the passive side
	 * @throws Exception if the connection fails
	 */
	protected void connect(Endpoint client, Endpoint server) throws Exception {
		CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
		RdmaListener listener = server.provider.listen(listenAddress(), (request) -> {
			try {
				accepted.complete(request.accept(server.qp, PrivateData.EMPTY, server.events));
			}
			catch (Throwable ex) {
				accepted.completeExceptionally(ex);
			}
		});
		try {
			client.connection = await(connecting(client, listener));
			server.connection = await(accepted);
		}
		catch (Exception ex) {
			// A refused connection is often the passive side's doing: say what went wrong there.
			if (accepted.isCompletedExceptionally()) {
				ex.addSuppressed(accepted.handle((connection, failure) -> failure).join());
			}
			throw ex;
		}
		finally {
			listener.close();
		}
		assertThat(client.connection.isConnected()).isTrue();
	}

	/**
	 * Connects a pair (see {@link #connect(Endpoint, Endpoint)}).
	 * @param link the pair, with whatever receives it needs already posted
	 * @throws Exception if the connection fails
	 */
	protected void connect(Link link) throws Exception {
		connect(link.client, link.server);
	}

	/**
	 * A pair, not yet connected, with default attributes: what most tests start from, posting
	 * receives before they {@link #connect(Link)} (a Send that finds none may end an iWARP
	 * connection, RFC 5041 §7).
	 * @return the pair
	 */
	protected Link pair() {
		return pair(UnaryOperator.identity(), UnaryOperator.identity());
	}

	/**
	 * A pair, not yet connected, with adjusted attributes.
	 * @param server adjusts the server's queue pair attributes
	 * @param client adjusts the client's queue pair attributes
	 * @return the pair
	 */
	protected Link pair(UnaryOperator<QueuePairAttributes> server, UnaryOperator<QueuePairAttributes> client) {
		return new Link(endpoint(this.clientProvider, client), endpoint(this.serverProvider, server));
	}

	/**
	 * A connected pair with default attributes and no receives posted.
	 * @return the pair
	 * @throws Exception if the connection fails
	 */
	protected Link connected() throws Exception {
		return connected(UnaryOperator.identity(), UnaryOperator.identity());
	}

	/**
	 * A connected pair with adjusted attributes and no receives posted.
	 * @param server adjusts the server's queue pair attributes
	 * @param client adjusts the client's queue pair attributes
	 * @return the pair
	 * @throws Exception if the connection fails
	 */
	protected Link connected(UnaryOperator<QueuePairAttributes> server, UnaryOperator<QueuePairAttributes> client)
			throws Exception {
		Link link = pair(server, client);
		connect(link);
		return link;
	}

	/**
	 * Starts connecting a client to a listener, with the client's event recorder and the kit's
	 * deadline.
	 * @param client the active side
	 * @param listener where it connects
	 * @return the connection to come
	 */
	protected CompletableFuture<RdmaConnection> connecting(Endpoint client, RdmaListener listener) {
		return client.provider.connect(client.qp,
				ConnectParameters.to(listener.localAddress()).withListener(client.events).withTimeout(deadline()));
	}

	/**
	 * Posts a work request that violates remote access rules and checks the outcome: the
	 * initiator completes it with {@code REM_ACCESS_ERR} and the connection fails on both
	 * sides.
	 * @param initiator the side that posts
	 * @param target the other side
	 * @param wr the offending work request
	 */
	protected void assertRemoteAccessFails(Endpoint initiator, Endpoint target, SendWorkRequest wr) {
		initiator.qp.postSend(wr);
		Completion completion = initiator.sends.next();
		assertThat(completion.wrId()).isEqualTo(wr.wrId());
		assertThat(completion.status()).as("status of %s", completion).isIn(remoteErrorStatuses(initiator, wr));
		assertConnectionFailed(initiator, target);
	}

	/**
	 * What an initiator's work request the peer refuses completes with: the peer's error where
	 * the provider reports it there ({@link ProviderCapabilities#remoteErrorsAtInitiator()}), and
	 * on iWARP, where the peer's Terminate fails the connection instead, success for a Send or
	 * Write already handed to the transport and a flush for a Read still waiting for its data.
	 * @param initiator the side that posted the work request
	 * @param wr the work request
	 * @return the acceptable statuses
	 */
	protected static List<CompletionStatus> remoteErrorStatuses(Endpoint initiator, SendWorkRequest wr) {
		if (initiator.provider.capabilities().remoteErrorsAtInitiator()) {
			return List.of(CompletionStatus.REM_ACCESS_ERR);
		}
		return wr.opcode() == SendOpcode.RDMA_READ
				? List.of(CompletionStatus.REM_ACCESS_ERR, CompletionStatus.WR_FLUSH_ERR)
				: List.of(CompletionStatus.REM_ACCESS_ERR, CompletionStatus.SUCCESS);
	}

	/**
	 * Checks that the connection between two endpoints failed: both get an ERROR and a
	 * DISCONNECTED event and their queue pairs are in error.
	 * @param sides the endpoints
	 */
	protected void assertConnectionFailed(Endpoint... sides) {
		boolean anyError = false;
		for (Endpoint side : sides) {
			side.events.await(ConnectionEventType.DISCONNECTED);
			boolean error = side.events.types().contains(ConnectionEventType.ERROR);
			anyError |= error;
			if (seesEverything(side)) {
				// The software providers see both ends of every failure.
				assertThat(error).as("%s reported ERROR", side.provider.name()).isTrue();
			}
			assertThat(side.qp.state()).isEqualTo(QueuePairState.ERROR);
			assertThat(side.connection.isConnected()).isFalse();
		}
		if (sides.length > 0 && sides[0].provider.capabilities().remoteErrorsAtInitiator()) {
			// An adapter reports the failure to the side whose work failed; the other side of an
			// RDMA Read or Write it refused sees no completion, only the disconnect. On iWARP
			// neither may see more than the Terminate's disconnect.
			assertThat(anyError).as("one side reported ERROR").isTrue();
		}
	}

	/**
	 * A queue pair whose work failed locally is in ERROR: at once on the software providers,
	 * which change the state before they complete the work; on a device once it has moved it
	 * there (Soft-RoCE may post the failed completion a moment before it changes the state).
	 * @param side the endpoint whose queue pair failed
	 */
	protected void assertEntersErrorState(Endpoint side) {
		if (!seesEverything(side)) {
			long deadline = System.nanoTime() + deadline().toNanos();
			while (side.qp.state() != QueuePairState.ERROR && System.nanoTime() < deadline) {
				LockSupport.parkNanos(1_000_000);
			}
		}
		assertThat(side.qp.state()).isEqualTo(QueuePairState.ERROR);
	}

	/**
	 * Posts a signaled work request and checks that it succeeds.
	 * @param initiator the side that posts, with nothing else outstanding on its send queue
	 * @param wr the work request
	 * @return its completion
	 */
	protected Completion succeeds(Endpoint initiator, SendWorkRequest wr) {
		Completion completion = initiator.postAndAwait(wr);
		assertThat(completion.wrId()).isEqualTo(wr.wrId());
		assertThat(completion.status()).as("status of %s", completion).isEqualTo(CompletionStatus.SUCCESS);
		return completion;
	}

	/**
	 * Scatter/gather entries over consecutive pieces of a region, from its start.
	 * @param region the region
	 * @param sizes the size of each piece
	 * @return one entry a piece
	 */
	private static List<ScatterGatherEntry> consecutive(MemoryRegion region, int[] sizes) {
		List<ScatterGatherEntry> entries = new ArrayList<>();
		int offset = 0;
		for (int size : sizes) {
			entries.add(ScatterGatherEntry.of(region, offset, size));
			offset += size;
		}
		return entries;
	}

	/**
	 * Waits for a future with the deadline.
	 * @param <T> the result type
	 * @param future the future
	 * @return its value
	 * @throws Exception if it failed
	 */
	protected <T> T await(CompletableFuture<T> future) throws Exception {
		try {
			return future.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof Exception cause) {
				throw cause;
			}
			throw ex;
		}
		catch (TimeoutException ex) {
			throw new AssertionError("Nothing happened within " + deadline(), ex);
		}
	}

	/**
	 * Waits for a future to fail.
	 * @param future the future
	 * @return the cause
	 */
	protected Throwable awaitFailure(CompletableFuture<?> future) {
		try {
			Object value = future.get(deadline().toMillis(), TimeUnit.MILLISECONDS);
			throw new AssertionError("Expected a failure but got " + value);
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		catch (TimeoutException ex) {
			throw new AssertionError("Neither success nor failure within " + deadline(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError(ex);
		}
	}

	/**
	 * A completion queue without a handler that a closed queue pair flushed receives into.
	 * @param capacity the queue's capacity
	 * @param receives how many receives were posted, work request ids from 0 on
	 * @return the queue, its completions unpolled
	 */
	private CompletionQueue flushedReceives(int capacity, int receives) {
		ProtectionDomain pd = this.clientProvider.allocateProtectionDomain();
		CompletionQueue cq = this.clientProvider.createCompletionQueue(capacity, null);
		QueuePair qp = this.clientProvider.createQueuePair(QueuePairAttributes.of(pd, cq));
		MemoryRegion region = pd.registerMemory(ByteBuffer.allocateDirect(64), EnumSet.of(LOCAL_WRITE));
		for (int i = 0; i < receives; i++) {
			qp.postRecv(ReceiveWorkRequest.of(i, ScatterGatherEntry.of(region)));
		}
		qp.close();
		return cq;
	}

	private int pollAtLeast(CompletionQueue cq, WorkCompletion[] holders, int count) {
		long end = System.nanoTime() + deadline().toNanos();
		int polled = 0;
		while (polled < count) {
			// Poll into the caller's holders from index "polled" on, keeping their identity.
			WorkCompletion[] rest = Arrays.copyOfRange(holders, polled, holders.length);
			int n = cq.poll(rest);
			System.arraycopy(rest, 0, holders, polled, rest.length);
			polled += n;
			if (polled >= count) {
				break;
			}
			if (System.nanoTime() - end > 0) {
				fail("Only " + polled + " of " + count + " completions within " + deadline());
			}
			Thread.onSpinWait();
		}
		return polled;
	}

	private void runConcurrently(int threads, IntTask task) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int index = t;
			Thread worker = new Thread(() -> {
				try {
					start.await();
					task.run(index);
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
			}, "conformance-worker-" + t);
			workers.add(worker);
			worker.start();
		}
		start.countDown();
		long end = System.nanoTime() + deadline().toNanos() * 2;
		for (Thread worker : workers) {
			worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
			if (worker.isAlive()) {
				fail(worker.getName() + " did not finish within " + deadline().multipliedBy(2) + " (deadlock?)");
			}
		}
		if (!failures.isEmpty()) {
			AssertionError error = new AssertionError(failures.size() + " worker(s) failed");
			failures.forEach(error::addSuppressed);
			throw error;
		}
	}

	private void assertNoThreadsLeftBeyond(Set<Thread> before) throws InterruptedException {
		long end = System.nanoTime() + deadline().toNanos();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (before.contains(thread) || thread.getName().startsWith("ForkJoinPool.commonPool")) {
				continue;
			}
			thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
			assertThat(thread.isAlive()).as("thread %s is still running after the providers closed", thread.getName())
				.isFalse();
		}
	}

	/**
	 * An STag that is not the region's (nor zero, which some devices treat as special).
	 * @param region the region
	 * @return a random other STag
	 */
	static int unusedStag(MemoryRegion region) {
		int stag;
		do {
			stag = ThreadLocalRandom.current().nextInt();
		}
		while (stag == region.stag() || stag == 0);
		return stag;
	}

	private static void assertThatIllegalStateException(Runnable action) {
		assertThatThrownBy(action::run).isInstanceOf(IllegalStateException.class);
	}

	private static void fill(ByteBuffer buffer, int value) {
		for (int i = 0; i < buffer.capacity(); i++) {
			buffer.put(i, (byte) value);
		}
	}

	/**
	 * Asserts {@code buffer[from, to)} holds the pattern {@code (seed + i - from) mod 256}.
	 * @param buffer the buffer
	 * @param from first index
	 * @param to end index
	 * @param seed the byte at {@code from}
	 */
	protected static void assertPattern(ByteBuffer buffer, int from, int to, int seed) {
		for (int i = from; i < to; i++) {
			if (buffer.get(i) != (byte) (seed + i - from)) {
				fail("Byte " + i + " is " + buffer.get(i) + " but should be " + (byte) (seed + i - from));
			}
		}
	}

	/**
	 * Asserts {@code buffer[from, to)} holds one byte value.
	 * @param buffer the buffer
	 * @param from first index
	 * @param to end index
	 * @param value the value
	 */
	protected static void assertFilled(ByteBuffer buffer, int from, int to, int value) {
		for (int i = from; i < to; i++) {
			if (buffer.get(i) != (byte) value) {
				fail("Byte " + i + " is " + buffer.get(i) + " but should be untouched (" + (byte) value + ")");
			}
		}
	}

	/**
	 * A connected pair.
	 * @param client the active side
	 * @param server the passive side
	 */
	protected record Link(Endpoint client, Endpoint server) {
	}

	@FunctionalInterface
	private interface IntTask {

		void run(int index) throws Exception;

	}

}
