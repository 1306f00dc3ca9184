package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * A Send completes once the socket has taken it, inside the write that took it; a completion
 * handler that posts more work then (as the RPC-over-RDMA transport posts work that waited for
 * send-queue room) must see it transmitted, even when that write is the receive path's own,
 * made after it executed what it read, and the work is posted by a chain of such completions. The work was once left for the receive path's next
 * batch, which never came: the transport's replies with more Writes than its send queue held
 * hung a third of the time (SendQueueTest).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwChainedSendTest {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final int MESSAGES = 50;

	/**
	 * Sends per message: the reply and the follow-ups each posted by the completion of the one
	 * before. The receive path transmits once after executing what it read and once more as it
	 * leaves, so a chain of three outlasts both.
	 */
	private static final int CHAIN = 4;

	private Peer server;

	private Peer client;

	@AfterEach
	void close() {
		SiwTestPeer.close(this.client, this.server);
	}

	@Test
	void aSendPostedByTheCompletionOfTheReceivePathsOwnSendGoesOut() throws Exception {
		this.server = new Peer(true);
		this.client = new Peer(false);
		SiwTestPeer.connect(this.server, this.client, DEADLINE);

		for (int i = 0; i < MESSAGES; i++) {
			this.client.send(1);
			// The server's reply, then the follow-ups that each completion before posted.
			this.client.awaitCount(this.client.received, CHAIN * (i + 1), DEADLINE, "messages");
		}
		assertThat(this.server.followUps.get()).isEqualTo((CHAIN - 1) * MESSAGES);
		assertThat(this.server.failedSends.get()).isZero();
	}

	/** Replies to each message; the completion of each reply posts a follow-up Send, and so on. */
	private static final class Peer extends SiwTestPeer {

		private final boolean replies;

		private final WorkCompletion[] polled = new WorkCompletion[8];

		final AtomicInteger received = new AtomicInteger();

		final AtomicInteger followUps = new AtomicInteger();

		Peer(boolean replies) {
			super(RdmaProviders.open("siw"));
			this.replies = replies;
		}

		void send(long wrId) {
			this.qp.postSend(SendWorkRequest.send(wrId, ScatterGatherEntry.of(this.outbox, 0, 8)));
		}

		@Override
		void receiveCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					if (!this.polled[i].isSuccess()) {
						// Flushed at close: reposting would only be flushed again.
						continue;
					}
					repost((int) this.polled[i].wrId());
					if (this.replies) {
						// On the thread running the receive path: the reply leaves with its write.
						send(1);
					}
				}
				synchronized (this) {
					this.received.addAndGet(n);
					notifyAll();
				}
			}
		}

		@Override
		void sendCompletions(CompletionQueue cq) {
			int n;
			while ((n = cq.poll(this.polled)) > 0) {
				for (int i = 0; i < n; i++) {
					if (!this.polled[i].isSuccess()) {
						this.failedSends.incrementAndGet();
					}
					else if (this.replies && this.polled[i].wrId() < CHAIN) {
						// Told inside the write that took the Send before.
						this.followUps.incrementAndGet();
						send(this.polled[i].wrId() + 1);
					}
				}
			}
		}

	}

}
