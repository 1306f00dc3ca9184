package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * Signaled Sends and RDMA Writes complete once a later Read Response proves the peer
 * processed them; with {@code siw.fence-delay-micros} one zero-length fence Read completes a
 * batch of them, and the transmit thread sends it on its own when no message does. A
 * ping-pong of signaled Sends, as RPC calls and replies are, counts both.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwDelayedFenceTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final int ROUND_TRIPS = 200;

	private Peer server;

	private Peer client;

	@AfterEach
	void close() {
		SiwTestPeer.close(this.client, this.server);
	}

	@Test
	void oneFenceCompletesABatchOfSignaledSendsAndTheLastBatchStillCompletes() throws Exception {
		// A delay far longer than the round trips: only the batch size sends fences with
		// messages, and the timer sends the last one.
		connect(RdmaProviderConfig.defaults().with(SiwSettings.FENCE_DELAY_MICROS, "1000000"));
		pingPong();
		this.client.awaitSendCompletions(ROUND_TRIPS, DEADLINE);
		this.server.awaitSendCompletions(ROUND_TRIPS, DEADLINE);
		for (Peer peer : new Peer[] { this.client, this.server }) {
			assertThat(peer.failedSends.get()).isZero();
			long fences = peer.transmitter().fencesSent();
			assertThat(fences).as("fences sent for %d signaled Sends", ROUND_TRIPS)
				.isBetween((long) ROUND_TRIPS / RdmapTransmitter.FENCE_BATCH, (long) ROUND_TRIPS / 8);
		}
	}

	@Test
	void withNoDelayEverySignaledSendIsFencedAtOnce() throws Exception {
		connect(RdmaProviderConfig.defaults().with(SiwSettings.FENCE_DELAY_MICROS, "0"));
		pingPong();
		this.client.awaitSendCompletions(ROUND_TRIPS, DEADLINE);
		this.server.awaitSendCompletions(ROUND_TRIPS, DEADLINE);
		// A Send transmitted while the fence before it is still in flight shares the next one,
		// so a fence per Send is the most, not the least.
		assertThat(this.client.transmitter().fencesSent()).isGreaterThan(ROUND_TRIPS / 2);
		assertThat(this.server.transmitter().fencesSent()).isGreaterThan(ROUND_TRIPS / 2);
	}

	@Test
	void aLoneSignaledWriteCompletesWithoutAnyLaterMessage() throws Exception {
		connect(RdmaProviderConfig.defaults());
		MemoryRegion sink = this.server.pd.registerMemory(ByteBuffer.allocateDirect(64),
				EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
		this.client.outbox.buffer().put(0, (byte) 42);
		this.client.qp.postSend(SendWorkRequest.rdmaWrite(5, new RemoteAddress(sink.address(), sink.rkey()),
				ScatterGatherEntry.of(this.client.outbox, 0, 8)));
		this.client.awaitSendCompletions(1, DEADLINE);
		assertThat(this.client.failedSends.get()).isZero();
		assertThat(sink.buffer().get(0)).isEqualTo((byte) 42);
		assertThat(this.client.transmitter().fencesSent()).isEqualTo(1);
	}

	// ---- harness ------------------------------------------------------------------------------

	/** The client sends, the server echoes from its receive handler, the client waits for each echo. */
	private void pingPong() throws InterruptedException {
		for (int i = 0; i < ROUND_TRIPS; i++) {
			this.client.qp.postSend(SendWorkRequest.send(i, ScatterGatherEntry.of(this.client.outbox, 0, 8)));
			assertThat(this.client.replies.tryAcquire(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
				.as("echo %d arrives", i)
				.isTrue();
		}
	}

	private void connect(RdmaProviderConfig settings) throws Exception {
		this.server = new Peer(RdmaProviders.open("siw", settings), true);
		this.client = new Peer(RdmaProviders.open("siw", settings), false);
		SiwTestPeer.connect(this.server, this.client, DEADLINE);
	}

	/** One end; the server echoes every Send. */
	private static final class Peer extends SiwTestPeer {

		final boolean echoes;

		final Semaphore replies = new Semaphore(0);

		final WorkCompletion[] polled = new WorkCompletion[8];

		Peer(RdmaProvider provider, boolean echoes) {
			super(provider);
			this.echoes = echoes;
		}

		@Override
		void receiveCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					WorkCompletion wc = this.polled[i];
					if (wc.status() != CompletionStatus.SUCCESS) {
						continue;
					}
					repost((int) wc.wrId());
					if (this.echoes) {
						this.qp.postSend(SendWorkRequest.send(wc.wrId(), ScatterGatherEntry.of(this.outbox, 0, 8)));
					}
					else {
						this.replies.release();
					}
				}
			}
		}

	}

}
