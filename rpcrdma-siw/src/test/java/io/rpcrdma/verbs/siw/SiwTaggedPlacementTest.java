package io.rpcrdma.verbs.siw;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Endpoint;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;
import io.rpcrdma.verbs.siw.wire.ReadRequest;
import io.rpcrdma.verbs.siw.wire.TerminateError;

/**
 * Every tagged DDP segment carries its STag and tagged offset and is checked on its own
 * (RFC 5041 §7), and so is every part of a segment read from the socket over time: memory whose
 * STag was invalidated or re-registered (what the memory pool does to a buffer it takes back
 * when a call timed out) receives nothing more of a message that began before, and neither
 * does the sink of an RDMA Read once it was re-registered or its connection ended. Late bytes
 * never land in a buffer already lent to another call; the peer gets the Terminate RFC 5041
 * names for a tagged buffer with an invalid STag.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwTaggedPlacementTest {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	/** A segment this long is placed straight from the socket when its header comes first. */
	private static final int LARGE = 60_000;

	private RdmaProvider provider;

	private ProtectionDomain pd;

	private RdmaListener listener;

	private final LinkedBlockingQueue<Endpoint> accepted = new LinkedBlockingQueue<>();

	@BeforeEach
	void listen() {
		this.provider = RdmaProviders.open("siw");
		this.pd = this.provider.allocateProtectionDomain();
		this.listener = this.provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), (request) -> {
			Endpoint served = new Endpoint(this.provider, this.pd, DEADLINE, UnaryOperator.identity());
			served.connection = request.accept(served.qp, PrivateData.EMPTY, served.events);
			this.accepted.add(served);
		});
	}

	@AfterEach
	void close() {
		this.provider.close();
	}

	// ---- RDMA Write ---------------------------------------------------------------------------

	@Test
	void aWriteWhoseStagIsReRegisteredBetweenTwoSegmentsPlacesNothingMore() throws Exception {
		assertSecondWriteSegmentRefusedAfter(MemoryRegion::reregister);
	}

	@Test
	void aWriteWhoseStagIsInvalidatedBetweenTwoSegmentsPlacesNothingMore() throws Exception {
		assertSecondWriteSegmentRefusedAfter(MemoryRegion::invalidate);
	}

	private void assertSecondWriteSegmentRefusedAfter(Consumer<MemoryRegion> release) throws Exception {
		MemoryRegion target = remotelyWritable(4096);
		int stag = target.stag();
		try (HostilePeer peer = connect()) {
			peer.write(peer.tagged(false, RdmapOpcode.RDMA_WRITE, stag, target.address(), filled(1024, 1)));
			awaitPlaced(target, 1023, 1);
			release.accept(target);
			peer.write(peer.tagged(true, RdmapOpcode.RDMA_WRITE, stag, target.address() + 1024, filled(1024, 2)));
			peer.assertTerminatedWith(TerminateError.DDP_TAGGED_INVALID_STAG);
		}
		assertFilled(target, 0, 1024, 1);
		assertFilled(target, 1024, 4096, 0);
	}

	// ---- RDMA Read Response -------------------------------------------------------------------

	@Test
	void aReadResponseForASinkReRegisteredSinceTheReadWentOutIsRefused() throws Exception {
		assertReadResponseRefusedAfter(MemoryRegion::reregister);
	}

	@Test
	void aReadResponseForASinkInvalidatedSinceTheReadWentOutIsRefused() throws Exception {
		assertReadResponseRefusedAfter(MemoryRegion::invalidate);
	}

	private void assertReadResponseRefusedAfter(Consumer<MemoryRegion> release) throws Exception {
		try (HostilePeer peer = connect()) {
			Endpoint served = this.accepted.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
			MemoryRegion sink = served.register(4096, 0, LOCAL_WRITE);
			served.qp.postSend(SendWorkRequest.rdmaRead(1, new RemoteAddress(0x1000, 0x1234), ScatterGatherEntry.of(sink)));
			ReadRequest read = peer.awaitReadRequest();
			release.accept(sink);
			peer.write(peer.tagged(true, RdmapOpcode.RDMA_READ_RESPONSE, read.sinkStag(), read.sinkTaggedOffset(),
					filled(4096, 9)));
			peer.assertTerminatedWith(TerminateError.DDP_TAGGED_INVALID_STAG);
			assertThat(served.sends.next().status()).as("the Read").isNotEqualTo(CompletionStatus.SUCCESS);
		}
	}

	@Test
	void aReadResponseWhoseSinkIsReRegisteredBetweenTwoSegmentsPlacesNothingMore() throws Exception {
		try (HostilePeer peer = connect()) {
			Endpoint served = this.accepted.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
			MemoryRegion sink = served.register(4096, 0, LOCAL_WRITE);
			served.qp.postSend(SendWorkRequest.rdmaRead(1, new RemoteAddress(0x1000, 0x1234), ScatterGatherEntry.of(sink)));
			ReadRequest read = peer.awaitReadRequest();
			peer.write(peer.tagged(false, RdmapOpcode.RDMA_READ_RESPONSE, read.sinkStag(), read.sinkTaggedOffset(),
					filled(1024, 3)));
			awaitPlaced(sink, 1023, 3);
			sink.reregister();
			peer.write(peer.tagged(true, RdmapOpcode.RDMA_READ_RESPONSE, read.sinkStag(), read.sinkTaggedOffset() + 1024,
					filled(3072, 4)));
			peer.assertTerminatedWith(TerminateError.DDP_TAGGED_INVALID_STAG);
			assertThat(served.sends.next().status()).isNotEqualTo(CompletionStatus.SUCCESS);
			assertFilled(sink, 0, 1024, 3);
			assertFilled(sink, 1024, 4096, 0);
		}
	}

	@Test
	void aReadResponseSegmentWhoseSinkIsReRegisteredWhileItsPayloadArrivesPlacesNoneOfTheRest() throws Exception {
		try (HostilePeer peer = connect()) {
			Endpoint served = this.accepted.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
			MemoryRegion sink = served.register(LARGE, 0, LOCAL_WRITE);
			served.qp.postSend(SendWorkRequest.rdmaRead(1, new RemoteAddress(0x1000, 0x1234), ScatterGatherEntry.of(sink)));
			ReadRequest read = peer.awaitReadRequest();
			byte[] response = peer.tagged(true, RdmapOpcode.RDMA_READ_RESPONSE, read.sinkStag(), read.sinkTaggedOffset(),
					filled(LARGE, 5));
			peer.write(response, 0, 1000);
			awaitPlaced(sink, 983, 5);
			sink.reregister();
			peer.write(response, 1000, response.length);
			peer.assertTerminatedWith(TerminateError.DDP_TAGGED_INVALID_STAG);
			assertFilled(sink, 0, 984, 5);
			assertFilled(sink, 984, LARGE, 0);
		}
	}

	// ---- harness ------------------------------------------------------------------------------

	private HostilePeer connect() throws Exception {
		return HostilePeer.connect(this.listener.localAddress(), DEADLINE);
	}

	private MemoryRegion remotelyWritable(int size) {
		return this.pd.registerMemory(ByteBuffer.allocateDirect(size), EnumSet.of(LOCAL_WRITE, REMOTE_WRITE));
	}

	/** Waits until the receive path placed byte {@code index} (the last of what was sent). */
	private static void awaitPlaced(MemoryRegion region, int index, int value) {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (region.buffer().get(index) != (byte) value) {
			assertThat(System.nanoTime() - end).as("byte %d is placed", index).isNegative();
			Thread.onSpinWait();
		}
	}

	private static void assertFilled(MemoryRegion region, int from, int to, int value) {
		ByteBuffer memory = region.buffer();
		for (int i = from; i < to; i++) {
			if (memory.get(i) != (byte) value) {
				throw new AssertionError("byte " + i + " of " + region + " is " + memory.get(i) + ", expected " + value
						+ " (bytes " + from + " to " + to + ")");
			}
		}
	}

	private static byte[] filled(int length, int value) {
		byte[] bytes = new byte[length];
		Arrays.fill(bytes, (byte) value);
		return bytes;
	}

}
