package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.QueuePairLimitException;
import io.rpcrdma.verbs.RdmaException;

class SharedCompletionQueuesTest {

	private final List<SharedCompletionQueue> created = new ArrayList<>();

	private int capacity = 1000;

	private final SharedCompletionQueue.Member member = (detail) -> {
	};

	private SharedCompletionQueues queues(int limit) {
		return new SharedCompletionQueues(limit, (number) -> {
			SharedCompletionQueue queue = new SharedCompletionQueue(number,
					new FakeAdapterCompletionQueue(16, this.capacity), new CompletionDispatcher((index) -> null), 20);
			this.created.add(queue);
			return queue;
		}, "rxe0");
	}

	@Test
	void noQueueExistsBeforeAQueuePairNeedsOne() {
		SharedCompletionQueues queues = queues(4);
		assertThat(queues.queues()).isEmpty();
		assertThat(this.created).isEmpty();
	}

	@Test
	void theFirstQueuePairsEachGetANewQueueUpToTheLimitThenTheLeastReservedIsShared() {
		SharedCompletionQueues queues = queues(3);
		SharedCompletionQueue first = queues.reserve(100, this.member);
		SharedCompletionQueue second = queues.reserve(300, this.member);
		SharedCompletionQueue third = queues.reserve(200, this.member);
		assertThat(List.of(first, second, third)).doesNotHaveDuplicates();
		assertThat(queues.queues()).containsExactly(first, second, third);
		assertThat(queues.reserve(60, this.member)).isSameAs(first);
		assertThat(queues.reserve(60, this.member)).isSameAs(first);
		assertThat(queues.reserve(50, this.member)).isSameAs(third);
		assertThat(this.created).hasSize(3);
		assertThat(first.reserved()).isEqualTo(220);
		assertThat(second.reserved()).isEqualTo(300);
		assertThat(third.reserved()).isEqualTo(250);
	}

	@Test
	void aQueueWhoseQueuePairsAllLeftIsReusedBeforeAnotherIsMade() {
		SharedCompletionQueues queues = queues(4);
		SharedCompletionQueue first = queues.reserve(100, this.member);
		queues.release(first, 100, this.member);
		assertThat(queues.reserve(100, this.member)).isSameAs(first);
		assertThat(this.created).hasSize(1);
	}

	@Test
	void whenEveryQueueIsFullAQueuePairIsRefusedWithWhatToChange() {
		SharedCompletionQueues queues = queues(2);
		SharedCompletionQueue first = queues.reserve(600, this.member);
		queues.reserve(600, this.member);
		queues.reserve(400, this.member);
		queues.reserve(400, this.member);
		assertThatExceptionOfType(QueuePairLimitException.class).isThrownBy(() -> queues.reserve(1, this.member))
			.withMessage("The 2 shared completion queues of rxe0 are full (2000 of 2000 entries reserved, each queue "
					+ "pair reserving its send plus receive depth, 1 for this one); close connections, or raise "
					+ "disni.completion-queues (at most 64) or disni.completion-queue-entries");
		queues.release(first, 600, this.member);
		assertThat(queues.reserve(552, this.member)).isSameAs(first);
	}

	@Test
	void aQueuePairDeeperThanAWholeQueueIsRefusedWithItsDepth() {
		SharedCompletionQueues queues = queues(1);
		queues.reserve(10, this.member);
		assertThatExceptionOfType(QueuePairLimitException.class).isThrownBy(() -> queues.reserve(1001, this.member))
			.withMessage("A queue pair with 1001 work requests (send plus receive depth) needs more entries than a "
					+ "shared completion queue of rxe0 has (1000); lower the queue depths or raise "
					+ "disni.completion-queue-entries");
	}

	@Test
	void aQueueTheDeviceMadeSmallerThanAskedIsSizedByWhatItGot() {
		this.capacity = 256;
		SharedCompletionQueues queues = queues(2);
		SharedCompletionQueue first = queues.reserve(200, this.member);
		assertThat(first.capacity()).isEqualTo(256);
		assertThat(queues.reserve(200, this.member)).isNotSameAs(first);
		assertThatExceptionOfType(QueuePairLimitException.class).isThrownBy(() -> queues.reserve(100, this.member));
	}

	@Test
	void aQueueTheDeviceRefusesIsReportedWithTheSettingToLower() {
		SharedCompletionQueues queues = new SharedCompletionQueues(2, (number) -> {
			throw new IOException("Invalid argument");
		}, "rxe0");
		assertThatExceptionOfType(RdmaException.class).isThrownBy(() -> queues.reserve(10, this.member))
			.withMessage("Creating shared completion queue 1 on rxe0 failed: Invalid argument; lower "
					+ "disni.completion-queue-entries");
	}

	@Test
	void closingClosesEveryQueueAndRefusesLaterQueuePairs() {
		SharedCompletionQueues queues = queues(2);
		queues.reserve(10, this.member);
		queues.reserve(10, this.member);
		queues.close();
		for (SharedCompletionQueue queue : this.created) {
			assertThat(((FakeAdapterCompletionQueue) queue.adapter()).calls()).containsExactly("destroy");
		}
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> queues.reserve(10, this.member));
	}

	@Test
	void theDefaultQueuesHoldAThousandTransportConnectionsNowThatTheirSendQueuesFollowTheirCredits() {
		this.capacity = 32768;
		// The transport's default depths (SendQueueBudget#depth): 40 receives, an ORD of
		// 16 and one RDMA Write per each of 32 credits make 88 sends; and 40 receives.
		assertThat(DisniQueuePair.reservedEntries(88, 40, false)).isEqualTo(128);
		assertThat(DisniQueuePair.reservedEntries(88, 40, true)).as("with memory windows").isEqualTo(208);
		assertThat(connectionsHeld(DisniQueuePair.reservedEntries(88, 40, false))).isEqualTo(1024);
		assertThat(connectionsHeld(DisniQueuePair.reservedEntries(88, 40, true))).isEqualTo(628);
		// Before: a fixed 512 sends.
		assertThat(connectionsHeld(DisniQueuePair.reservedEntries(512, 40, false))).isEqualTo(236);
		assertThat(connectionsHeld(DisniQueuePair.reservedEntries(512, 40, true))).isEqualTo(204);
	}

	/** How many queue pairs reserving {@code entries} the default number of queues holds. */
	private int connectionsHeld(int entries) {
		SharedCompletionQueues queues = queues(DisniSettings.DEFAULT_COMPLETION_QUEUES);
		int held = 0;
		while (true) {
			try {
				queues.reserve(entries, this.member);
				held++;
			}
			catch (QueuePairLimitException ex) {
				return held;
			}
		}
	}

}
