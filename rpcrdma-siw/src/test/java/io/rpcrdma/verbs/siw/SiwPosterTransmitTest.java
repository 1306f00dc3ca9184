package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * Messages up to {@link RdmapTransmitter#POSTER_LIMIT} leave on the thread that produced them:
 * a 64 KiB Read Response on the receive thread that read its Read Request, a 64 KiB RDMA
 * Write on the thread that posted it, a Read Request for 64 KiB however large the Read. What
 * the socket cannot take at once is finished by the transmit thread, every byte in place.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwPosterTransmitTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final int ROUNDS = 40;

	private static final int SIZE = 64 * 1024;

	private Peer server;

	private Peer client;

	@AfterEach
	void close() {
		SiwTestPeer.close(this.client, this.server);
	}

	@Test
	void sixtyFourKiBReadsAndWritesAreTransmittedWithoutTheTransmitThread() throws Exception {
		connect();
		MemoryRegion source = this.server.pd.registerMemory(ByteBuffer.allocateDirect(SIZE),
				EnumSet.of(AccessFlag.REMOTE_READ));
		MemoryRegion sink = this.server.pd.registerMemory(ByteBuffer.allocateDirect(SIZE),
				EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
		MemoryRegion local = this.client.pd.registerMemory(ByteBuffer.allocateDirect(SIZE),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		MemoryRegion proof = this.client.pd.registerMemory(ByteBuffer.allocateDirect(1),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		for (int round = 0; round < ROUNDS; round++) {
			fill(source.buffer(), round);
			this.client.qp.postSend(SendWorkRequest.rdmaRead(3L * round, new RemoteAddress(source.address(), source.rkey()),
					ScatterGatherEntry.of(local, 0, SIZE)));
			this.client.awaitSendCompletions(3 * round + 1, DEADLINE);
			assertThat(local.buffer().duplicate().clear()).as("round %d read", round).isEqualTo(source.buffer().duplicate().clear());
			fill(local.buffer(), round + ROUNDS);
			this.client.qp.postSend(SendWorkRequest.rdmaWrite(3L * round + 1, new RemoteAddress(sink.address(), sink.rkey()),
					ScatterGatherEntry.of(local, 0, SIZE)));
			this.client.awaitSendCompletions(3 * round + 2, DEADLINE);
			// The Write completed when the socket took it (as on Linux's siw); a Read behind it
			// proves it placed (RFC 5040 §5.5).
			this.client.qp.postSend(SendWorkRequest.rdmaRead(3L * round + 2, new RemoteAddress(source.address(), source.rkey()),
					ScatterGatherEntry.of(proof, 0, 1)));
			this.client.awaitSendCompletions(3 * round + 3, DEADLINE);
			assertThat(sink.buffer().duplicate().clear()).as("round %d write", round).isEqualTo(local.buffer().duplicate().clear());
		}
		assertThat(this.client.failedSends.get()).isZero();
		// Before, every 64 KiB Read Response and Write went to the transmit thread, and the Read
		// Request for 64 KiB too. A socket that takes a message only in part hands off what is
		// left, which a loaded machine may make happen now and then, never most of the time.
		assertThat(this.server.transmitter().handOffs()).as("Read Responses left to the transmit thread")
			.isLessThan(ROUNDS / 4);
		assertThat(this.client.transmitter().handOffs()).as("Read Requests and Writes left to the transmit thread")
			.isLessThan(ROUNDS / 4);
		// The client's receive path, on its I/O thread, awaited each Read's Response: the
		// thread polled for it before sleeping, unless a yield said every CPU was busy, which
		// stops polls for a while.
		SiwIoThread io = this.client.transmitter().ioThread();
		if (io.contendedPolls() == 0) {
			assertThat(io.owedPolls()[0]).as("polls for Read Responses owed").isPositive();
		}
	}

	@Test
	void writesTheSocketCannotTakeAreFinishedByTheTransmitThread() throws Exception {
		connect();
		int writes = 48;
		int size = RdmapTransmitter.POSTER_LIMIT;
		MemoryRegion sink = this.server.pd.registerMemory(ByteBuffer.allocateDirect(writes * size),
				EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ));
		MemoryRegion local = this.client.pd.registerMemory(ByteBuffer.allocateDirect(writes * size),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		for (int i = 0; i < writes; i++) {
			fill(local.buffer().duplicate().position(i * size).limit((i + 1) * size).slice(), i);
		}
		// The server's receive thread stops reading (its completion handler waits), so the
		// client's socket fills. TCP buffers that grow by themselves may hold tens of MiB
		// (net.ipv4.tcp_rmem allows 32 MiB on some hosts), so both ends fix theirs small:
		// 12 MiB then exceeds them by far whatever the host's settings.
		shrinkBuffers(this.server, StandardSocketOptions.SO_RCVBUF);
		shrinkBuffers(this.client, StandardSocketOptions.SO_SNDBUF);
		this.server.stall = new CountDownLatch(1);
		this.client.qp.postSend(SendWorkRequest.send(-1, ScatterGatherEntry.of(this.client.outbox, 0, 8)));
		assertThat(this.server.stalled.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the server stalls").isTrue();
		for (int i = 0; i < writes; i++) {
			this.client.qp.postSend(SendWorkRequest.rdmaWrite(i, new RemoteAddress(sink.address() + (long) i * size,
					sink.rkey()), ScatterGatherEntry.of(local, i * size, size)));
		}
		this.server.stall.countDown();
		this.client.awaitSendCompletions(writes + 1, DEADLINE);
		// A Write completes when the socket took it; a Read behind the last proves them all
		// placed (RFC 5040 §5.5).
		MemoryRegion proof = this.client.pd.registerMemory(ByteBuffer.allocateDirect(1),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		this.client.qp.postSend(SendWorkRequest.rdmaRead(writes, new RemoteAddress(sink.address(), sink.rkey()),
				ScatterGatherEntry.of(proof, 0, 1)));
		this.client.awaitSendCompletions(writes + 2, DEADLINE);
		assertThat(this.client.failedSends.get()).isZero();
		assertThat(sink.buffer().duplicate().clear()).isEqualTo(local.buffer().duplicate().clear());
		// A poster that finds the socket full leaves the rest to the transmit thread; a poster
		// that finds the transmit thread already holding the lock (it woke by itself) leaves
		// the whole message to it. Either way, 12 MiB past a stalled reader with 64 KiB
		// buffers cannot all have been written by the test's thread.
		assertThat(this.client.transmitter().transmitThreadBytes()).as("bytes the transmit thread wrote")
			.isPositive();
	}

	@Test
	void aReadResponseTheSocketTakesInPartArrivesWhole() throws Exception {
		connect();
		// Not a multiple of the MULPDU, and far beyond the small buffers below.
		int size = 12 * 1024 * 1024 + 12_345;
		MemoryRegion source = this.server.pd.registerMemory(ByteBuffer.allocateDirect(size),
				EnumSet.of(AccessFlag.REMOTE_READ));
		fill(source.buffer(), 5);
		MemoryRegion sink = this.client.pd.registerMemory(ByteBuffer.allocateDirect(size),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		MemoryRegion first = this.client.pd.registerMemory(ByteBuffer.allocateDirect(1),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		shrinkBuffers(this.client, StandardSocketOptions.SO_RCVBUF);
		shrinkBuffers(this.server, StandardSocketOptions.SO_SNDBUF);
		// The server reads nothing until both Read Requests are on their way; then the
		// client reads nothing more once the first, small, Read has completed: its completion
		// handler waits while the large Response fills both sockets.
		this.server.stall = new CountDownLatch(1);
		this.client.qp.postSend(SendWorkRequest.send(-1, ScatterGatherEntry.of(this.client.outbox, 0, 8)));
		assertThat(this.server.stalled.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the server stalls").isTrue();
		this.client.awaitSendCompletions(1, DEADLINE);
		CountDownLatch release = new CountDownLatch(1);
		this.client.sendStall = release;
		RemoteAddress from = new RemoteAddress(source.address(), source.rkey());
		this.client.qp.postSend(SendWorkRequest.rdmaRead(1, from, ScatterGatherEntry.of(first, 0, 1)));
		this.client.qp.postSend(SendWorkRequest.rdmaRead(2, from, oddEntries(sink, size)));
		this.server.stall.countDown();
		assertThat(this.client.sendStalled.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the client stalls").isTrue();
		awaitCutShort(this.server);
		release.countDown();
		this.client.awaitSendCompletions(3, DEADLINE);
		assertThat(this.client.failedSends.get()).isZero();
		assertThat(sink.buffer().duplicate().clear()).isEqualTo(source.buffer().duplicate().clear());
	}

	@Test
	void aWriteOfSeveralEntriesTheSocketTakesInPartArrivesWhole() throws Exception {
		connect();
		int size = 12 * 1024 * 1024 + 12_345;
		MemoryRegion local = this.server.pd.registerMemory(ByteBuffer.allocateDirect(size),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		fill(local.buffer(), 9);
		MemoryRegion sink = this.client.pd.registerMemory(ByteBuffer.allocateDirect(size),
				EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ));
		stallWhileTheOtherEndWrites(this.client, this.server, () -> this.server.qp.postSend(SendWorkRequest.rdmaWrite(1,
				new RemoteAddress(sink.address(), sink.rkey()), oddEntries(local, size))));
		// The Write completed when the socket took it; a Read behind it proves it placed
		// (RFC 5040 §5.5).
		MemoryRegion proof = this.server.pd.registerMemory(ByteBuffer.allocateDirect(1),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		this.server.qp.postSend(SendWorkRequest.rdmaRead(2, new RemoteAddress(sink.address(), sink.rkey()),
				ScatterGatherEntry.of(proof, 0, 1)));
		this.server.awaitSendCompletions(3, DEADLINE);
		assertThat(this.server.failedSends.get()).isZero();
		assertThat(sink.buffer().duplicate().clear()).isEqualTo(local.buffer().duplicate().clear());
	}

	/**
	 * Stalls {@code reader}'s receive path (a Send from {@code writer} whose handler waits),
	 * has {@code start} post the work that makes {@code writer} write a large tagged message,
	 * and lets the reader go on once the writer's socket has taken a gathering write only in
	 * part: the segments it did not take are framed again, the rest of the one it took in
	 * part is written from the transmit buffer.
	 */
	private void stallWhileTheOtherEndWrites(Peer reader, Peer writer, Runnable start) throws Exception {
		shrinkBuffers(reader, StandardSocketOptions.SO_RCVBUF);
		shrinkBuffers(writer, StandardSocketOptions.SO_SNDBUF);
		reader.stall = new CountDownLatch(1);
		writer.qp.postSend(SendWorkRequest.send(-1, ScatterGatherEntry.of(writer.outbox, 0, 8)));
		assertThat(reader.stalled.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the reader stalls").isTrue();
		start.run();
		awaitCutShort(writer);
		reader.stall.countDown();
	}

	private static void awaitCutShort(Peer writer) {
		long end = System.nanoTime() + DEADLINE.toNanos();
		while (writer.transmitter().gathersCutShort() == 0) {
			assertThat(end - System.nanoTime()).as("a gathering write is cut short in time").isPositive();
			Thread.onSpinWait();
		}
	}

	/** {@code size} bytes of {@code region} as four entries (the most a queue pair takes) of uneven lengths. */
	private static ScatterGatherEntry[] oddEntries(MemoryRegion region, int size) {
		int[] lengths = { 100_001, 3, 1_048_583 };
		ScatterGatherEntry[] entries = new ScatterGatherEntry[lengths.length + 1];
		int at = 0;
		for (int i = 0; i < lengths.length; i++) {
			entries[i] = ScatterGatherEntry.of(region, at, lengths[i]);
			at += lengths[i];
		}
		entries[lengths.length] = ScatterGatherEntry.of(region, at, size - at);
		return entries;
	}

	@Test
	void aSendPostedWhileTheReceivePathExecutesLeavesWithTheReceivePathsWrite() throws Exception {
		connect();
		// The client's receive handler, on its receive thread between a read and its next wait,
		// has another thread post a Send and waits until that post has returned.
		CountDownLatch arrived = new CountDownLatch(1);
		this.server.onReceive = arrived::countDown;
		this.client.onReceive = () -> postFromAnotherThread(this.client, 7);
		this.server.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(this.server.outbox, 0, 8)));
		this.client.awaitSendCompletions(1, DEADLINE);
		assertThat(await(arrived)).as("the server received the Send").isTrue();
		assertThat(this.client.failedSends.get()).isZero();
		assertThat(this.client.transmitter().batchesLeftToReceiver()).as("batches that took another thread's post")
			.isEqualTo(1);
	}

	private static void postFromAnotherThread(Peer peer, long wrId) {
		Thread poster = new Thread(
				() -> peer.qp.postSend(SendWorkRequest.send(wrId, ScatterGatherEntry.of(peer.outbox, 0, 8))));
		poster.start();
		try {
			poster.join(DEADLINE.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		assertThat(poster.isAlive()).as("the post returned").isFalse();
	}

	private static boolean await(CountDownLatch latch) {
		try {
			return latch.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static void shrinkBuffers(Peer peer, SocketOption<Integer> option) throws IOException {
		((SiwConnection) peer.connection).channel().setOption(option, 64 * 1024);
	}

	private static void fill(ByteBuffer buffer, int seed) {
		for (int i = 0; i < buffer.capacity(); i++) {
			buffer.put(i, (byte) (seed * 31 + i * 7 + (i >>> 9)));
		}
	}

	private void connect() throws Exception {
		this.server = new Peer();
		this.client = new Peer();
		SiwTestPeer.connect(this.server, this.client, DEADLINE);
	}

	/** One end whose receive handler may stall the receive thread. */
	private static final class Peer extends SiwTestPeer {

		final CountDownLatch stalled = new CountDownLatch(1);

		volatile CountDownLatch stall;

		final CountDownLatch sendStalled = new CountDownLatch(1);

		/** Once set, the next send completion's handler waits for it, holding the receive path. */
		volatile CountDownLatch sendStall;

		/** Run by the receive handler after each message, on the receive thread. */
		volatile Runnable onReceive;

		final WorkCompletion[] polled = new WorkCompletion[8];

		Peer() {
			super(RdmaProviders.open("siw"));
		}

		@Override
		void sendCompletions(CompletionQueue cq) {
			super.sendCompletions(cq);
			CountDownLatch s = this.sendStall;
			if (s != null) {
				this.sendStall = null;
				this.sendStalled.countDown();
				try {
					s.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

		@Override
		void receiveCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					if (this.polled[i].status() != CompletionStatus.SUCCESS) {
						continue;
					}
					repost((int) this.polled[i].wrId());
					Runnable hook = this.onReceive;
					if (hook != null) {
						hook.run();
					}
					CountDownLatch s = this.stall;
					if (s != null) {
						// Test only: a handler that blocks stops its receive thread reading.
						this.stalled.countDown();
						try {
							s.await(DEADLINE.toSeconds(), TimeUnit.SECONDS);
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
						}
						this.stall = null;
					}
				}
			}
		}

	}

}
