package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * One end of a {@code siw} connection for the provider's own tests: a queue pair with
 * {@value #RECEIVES} receives of {@value #SLOT} bytes posted (wr_id = slot), a
 * {@value #SLOT}-byte outbox to send from, and completion handlers that drain their queue,
 * re-arm it and drain again, so that a subclass only says what one drain does (send
 * completions are counted unless it says otherwise).
 */
abstract class SiwTestPeer {

	/** Receives posted at once. */
	static final int RECEIVES = 16;

	/** Bytes per receive and in the outbox. */
	static final int SLOT = 64;

	final RdmaProvider provider;

	final ProtectionDomain pd;

	final QueuePair qp;

	final MemoryRegion inbox;

	final MemoryRegion outbox;

	volatile RdmaConnection connection;

	SiwTestPeer(RdmaProvider provider) {
		this.provider = provider;
		this.pd = provider.allocateProtectionDomain();
		CompletionQueue sendCq = provider.createCompletionQueue(256, (cq) -> drainArmed(cq, this::sendCompletions));
		CompletionQueue recvCq = provider.createCompletionQueue(256, (cq) -> drainArmed(cq, this::receiveCompletions));
		sendCq.requestNotification();
		recvCq.requestNotification();
		this.qp = provider.createQueuePair(QueuePairAttributes.of(this.pd, sendCq, recvCq));
		this.inbox = this.pd.registerMemory(ByteBuffer.allocateDirect(RECEIVES * SLOT), EnumSet.of(AccessFlag.LOCAL_WRITE));
		this.outbox = this.pd.registerMemory(ByteBuffer.allocateDirect(SLOT), EnumSet.noneOf(AccessFlag.class));
		for (int i = 0; i < RECEIVES; i++) {
			repost(i);
		}
	}

	/** Send completions so far, failed ones included. */
	final AtomicInteger sendCompletions = new AtomicInteger();

	/** Send completions whose status was not success. */
	final AtomicInteger failedSends = new AtomicInteger();

	private final WorkCompletion[] sent = new WorkCompletion[8];

	/**
	 * Polls the send completion queue until it is empty, counting what it takes.
	 * @param cq the queue
	 */
	void sendCompletions(CompletionQueue cq) {
		int n;
		while ((n = cq.poll(this.sent)) > 0) {
			for (int i = 0; i < n; i++) {
				if (this.sent[i].status() != CompletionStatus.SUCCESS) {
					this.failedSends.incrementAndGet();
				}
			}
			synchronized (this) {
				this.sendCompletions.addAndGet(n);
				notifyAll();
			}
		}
	}

	/**
	 * Waits until {@code count} send completions have arrived.
	 * @param count how many
	 * @param deadline how long they may take
	 */
	final void awaitSendCompletions(int count, Duration deadline) {
		awaitCount(this.sendCompletions, count, deadline, "send completions");
	}

	/**
	 * Waits until {@code counter}, which the handlers raise and then {@code notifyAll()} on this
	 * peer, reaches {@code count}.
	 * @param counter what is counted
	 * @param count how many
	 * @param deadline how long they may take
	 * @param what what is counted, for the failure message
	 */
	final void awaitCount(AtomicInteger counter, int count, Duration deadline, String what) {
		long end = System.nanoTime() + deadline.toNanos();
		synchronized (this) {
			while (counter.get() < count) {
				long left = end - System.nanoTime();
				assertThat(left).as("%d %s arrive in time (%d did)", count, what, counter.get()).isPositive();
				try {
					TimeUnit.NANOSECONDS.timedWait(this, left);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new AssertionError(ex);
				}
			}
		}
	}

	/**
	 * Polls the receive completion queue until it is empty, reposting what it takes.
	 * @param cq the queue
	 */
	abstract void receiveCompletions(CompletionQueue cq);

	private static void drainArmed(CompletionQueue cq, Consumer<CompletionQueue> drain) {
		drain.accept(cq);
		cq.requestNotification();
		drain.accept(cq);
	}

	/**
	 * Posts receive {@code slot} again.
	 * @param slot its index, also its wr_id
	 */
	final void repost(int slot) {
		this.qp.postRecv(ReceiveWorkRequest.of(slot, ScatterGatherEntry.of(this.inbox, slot * SLOT, SLOT)));
	}

	/** @return the connection's transmitter, whose counters some tests read */
	final RdmapTransmitter transmitter() {
		return ((SiwConnection) this.connection).transmitter();
	}

	/**
	 * Connects {@code client} to {@code server} over 127.0.0.1.
	 * @param server the passive end
	 * @param client the active end
	 * @param deadline how long either end may take
	 * @throws Exception if either end fails or takes longer
	 */
	static void connect(SiwTestPeer server, SiwTestPeer client, Duration deadline) throws Exception {
		CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
		try (RdmaListener listener = server.provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				(request) -> accepted.complete(request.accept(server.qp, PrivateData.EMPTY, ConnectionEventListener.NONE)))) {
			client.connection = client.provider.connect(client.qp, ConnectParameters.to(listener.localAddress()))
				.get(deadline.toSeconds(), TimeUnit.SECONDS);
			server.connection = accepted.get(deadline.toSeconds(), TimeUnit.SECONDS);
		}
	}

	/**
	 * Closes each end that was made, in the order given.
	 * @param peers the ends, {@code null} where none was made
	 */
	static void close(SiwTestPeer... peers) {
		for (SiwTestPeer peer : peers) {
			if (peer != null) {
				peer.close();
			}
		}
	}

	/** Disconnects, closes the queue pair and the provider. */
	void close() {
		RdmaConnection c = this.connection;
		if (c != null) {
			c.disconnect();
		}
		this.qp.close();
		this.provider.close();
	}

}
