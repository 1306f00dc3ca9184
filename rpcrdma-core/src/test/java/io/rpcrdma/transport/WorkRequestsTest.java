package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.trace.ConnectionTrace;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.QueueFullException;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.SoftwareProvider;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * {@link WorkRequests} keeps posting within the send queue's depth, posts waiting work in order
 * as completions free room, and flushes it when the connection fails. The queue pair here
 * holds its work until the test completes it, which no running provider lets a test decide;
 * it refuses work beyond its depth as every provider does.
 */
class WorkRequestsTest {

	private final RdmaProvider provider = SoftwareProvider.LOOPBACK.open();

	private final HeldQueuePair qp = new HeldQueuePair(this.provider, 3);

	private final List<TransportException> refusals = new ArrayList<>();

	/** How often a refusal after close() took the last outstanding operation. */
	private int settled;

	private final WorkRequests work = new WorkRequests(this.qp, new ConnectionTrace(), this.refusals::add,
			() -> this.settled++);

	/** What each operation was told, by wr_id order of registration. */
	private final List<String> told = new ArrayList<>();

	@AfterEach
	void close() {
		this.provider.close();
	}

	private long postWrite(String name) {
		long wrId = this.work.register((wc) -> this.told.add(name + ":" + wc.status()));
		this.work.post(SendWorkRequest.rdmaWrite(wrId, new RemoteAddress(0, 1)));
		return wrId;
	}

	/** Completes the oldest posted work request as a provider's completion would. */
	private void completeOldest() {
		SendWorkRequest done = this.qp.outstanding.remove(0);
		Object operation = this.work.remove(done.wrId());
		WorkRequests.complete(operation, new WorkCompletion().set(done.wrId(), null, CompletionStatus.SUCCESS, 0, 0,
				false, 0, null));
		this.work.completed();
	}

	@Test
	void moreWorkThanTheSendQueueHoldsIsPostedInOrderAsCompletionsFreeRoom() {
		for (int i = 0; i < 8; i++) {
			postWrite("w" + i);
		}
		assertThat(this.qp.posted).hasSize(3);
		assertThat(this.work.budget().waiting()).isEqualTo(5);
		assertThat(this.work.budget().queued()).as("work that had to wait").isEqualTo(5);
		assertThat(this.work.budget().waitingHighWater()).isEqualTo(5);

		for (int i = 0; i < 8; i++) {
			completeOldest();
		}

		assertThat(this.qp.posted).extracting(SendWorkRequest::wrId).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
		assertThat(this.qp.mostOutstanding).isEqualTo(3);
		assertThat(this.told).containsExactly("w0:SUCCESS", "w1:SUCCESS", "w2:SUCCESS", "w3:SUCCESS", "w4:SUCCESS",
				"w5:SUCCESS", "w6:SUCCESS", "w7:SUCCESS");
		assertThat(this.work.isEmpty()).isTrue();
		assertThat(this.work.budget().held()).isZero();
		assertThat(this.refusals).isEmpty();
	}

	@Test
	void workWaitingWhenTheConnectionFailsIsToldAFlushOnceAndNeverPosted() {
		for (int i = 0; i < 6; i++) {
			postWrite("w" + i);
		}

		this.work.close();
		this.work.close();

		assertThat(this.told).containsExactly("w3:WR_FLUSH_ERR", "w4:WR_FLUSH_ERR", "w5:WR_FLUSH_ERR");
		assertThat(this.qp.posted).hasSize(3);
		for (int i = 0; i < 3; i++) {
			completeOldest();
		}
		assertThat(this.qp.posted).as("nothing posted after the failure").hasSize(3);
		assertThat(this.work.isEmpty()).isTrue();
	}

	@Test
	void waitingWorkTheQueuePairRefusesIsToldAFailureAndTheConnectionIsToFail() {
		for (int i = 0; i < 5; i++) {
			postWrite("w" + i);
		}
		this.qp.refuseNext = true;

		completeOldest();

		assertThat(this.told).containsExactly("w0:SUCCESS", "w3:GENERAL_ERR");
		assertThat(this.refusals).hasSize(1);
		assertThat(this.refusals.get(0)).isInstanceOf(TransportClosedException.class).hasMessage("A work request that waited for the send queue could not be posted: Posting a RDMA_WRITE "
					+ "failed: refused for the test");
		assertThat(this.qp.posted).extracting(SendWorkRequest::wrId).containsExactly(1L, 2L, 3L, 5L);
	}

	@Test
	void aSmallCallsPostFindingRoomIsRefusedAtOnceAsBeforeAndGivesItsSlotBack() {
		this.qp.refuseNext = true;
		assertThatExceptionOfType(TransportResourceException.class).isThrownBy(() -> postWrite("w0"));
		assertThat(this.told).containsExactly("w0:GENERAL_ERR");
		assertThat(this.work.budget().held()).isZero();
	}

	@Test
	void workRegisteredAfterTheConnectionFailedIsToldAFlushAtOnceAndNeverRegistered() throws Exception {
		this.work.close();

		assertThatExceptionOfType(TransportClosedException.class).isThrownBy(() -> postWrite("late"))
			.withMessageContaining("the connection failed before the work request was posted");
		RegisteredMemoryPool pool = new RegisteredMemoryPool(this.qp.attributes().protectionDomain(),
				MemoryPoolConfig.defaults(1024));
		RegisteredBuffer send = pool.lease(BufferRole.SEND, 64);
		assertThatExceptionOfType(TransportClosedException.class)
			.isThrownBy(() -> this.work.chunklessSend(send, 64, send));

		assertThat(this.told).containsExactly("late:WR_FLUSH_ERR");
		assertThat(send.isLeased()).as("the Send's buffer was given back").isFalse();
		assertThat(this.work.isEmpty()).as("nothing registered once the connection failed").isTrue();
		assertThat(this.qp.posted).isEmpty();
		pool.close();
	}

	@Test
	void aRefusedPostThatTakesTheLastOperationAfterTheFailureSaysSoOnce() {
		long wrId = this.work.register((wc) -> this.told.add("racing:" + wc.status()));
		this.work.close();
		assertThat(this.settled).as("an operation is still registered").isZero();
		this.qp.refuseNext = true;

		assertThatExceptionOfType(TransportResourceException.class)
			.isThrownBy(() -> this.work.post(SendWorkRequest.rdmaWrite(wrId, new RemoteAddress(0, 1))));

		assertThat(this.told).containsExactly("racing:GENERAL_ERR");
		assertThat(this.work.isEmpty()).isTrue();
		assertThat(this.settled).isEqualTo(1);
	}

	@Test
	void aRefusedPostBeforeAnyFailureSaysNothingOfSettling() {
		this.qp.refuseNext = true;
		assertThatExceptionOfType(TransportResourceException.class).isThrownBy(() -> postWrite("w0"));
		assertThat(this.settled).isZero();
	}

	/** A queue pair that keeps what is posted until the test completes it. */
	static final class HeldQueuePair implements QueuePair {

		private final QueuePairAttributes attributes;

		final List<SendWorkRequest> posted = new ArrayList<>();

		final List<SendWorkRequest> outstanding = new ArrayList<>();

		int mostOutstanding;

		boolean refuseNext;

		HeldQueuePair(RdmaProvider provider, int depth) {
			CompletionQueue cq = provider.createCompletionQueue(16, (queue) -> {
			});
			this.attributes = QueuePairAttributes.of(provider.allocateProtectionDomain(), cq).withQueueDepths(depth, 4);
		}

		@Override
		public int queuePairNumber() {
			return 1;
		}

		@Override
		public QueuePairAttributes attributes() {
			return this.attributes;
		}

		@Override
		public QueuePairState state() {
			return QueuePairState.RTS;
		}

		@Override
		public synchronized void postSend(SendWorkRequest workRequest) {
			if (this.refuseNext) {
				this.refuseNext = false;
				throw new IllegalStateException("refused for the test");
			}
			if (this.outstanding.size() == this.attributes.maxSendWorkRequests()) {
				throw new QueueFullException("send queue full");
			}
			this.posted.add(workRequest);
			this.outstanding.add(workRequest);
			this.mostOutstanding = Math.max(this.mostOutstanding, this.outstanding.size());
		}

		@Override
		public void postRecv(ReceiveWorkRequest workRequest) {
		}

		@Override
		public void close() {
		}

	}

}
