package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.SendWorkRequest;

class SendQueueBudgetTest {

	private static SendWorkRequest write(long wrId) {
		return SendWorkRequest.rdmaWrite(wrId, new RemoteAddress(0, 1));
	}

	@Test
	void workWithinTheDepthIsPostedAtOnceAndNothingWaits() {
		SendQueueBudget budget = new SendQueueBudget(2);
		assertThat(budget.take(write(1))).isTrue();
		assertThat(budget.take(write(2))).isTrue();
		assertThat(budget.held()).isEqualTo(2);
		assertThat(budget.waiting()).isZero();
		assertThat(budget.give()).isFalse();
		assertThat(budget.give()).isFalse();
		assertThat(budget.held()).isZero();
		assertThat(budget.queued()).isZero();
	}

	@Test
	void workBeyondTheDepthWaitsAndIsHandedToTheDrainerInPostingOrderAsRoomIsGivenBack() {
		SendQueueBudget budget = new SendQueueBudget(2);
		budget.take(write(1));
		budget.take(write(2));
		assertThat(budget.take(write(3))).isFalse();
		assertThat(budget.take(write(4))).isFalse();
		assertThat(budget.take(write(5))).isFalse();
		assertThat(budget.waiting()).isEqualTo(3);

		assertThat(budget.give()).as("the completing thread becomes the drainer").isTrue();
		assertThat(budget.next().wrId()).isEqualTo(3);
		assertThat(budget.next()).as("no room: the drainer's turn ends").isNull();
		assertThat(budget.give()).isTrue();
		assertThat(budget.give()).as("one drainer at a time").isFalse();
		assertThat(budget.next().wrId()).isEqualTo(4);
		assertThat(budget.next().wrId()).isEqualTo(5);
		assertThat(budget.next()).isNull();
		assertThat(budget.held()).isEqualTo(2);
		assertThat(budget.queued()).isEqualTo(3);
		assertThat(budget.waitingHighWater()).isEqualTo(3);
	}

	@Test
	void workPostedWhileOtherWorkWaitsWaitsBehindItEvenIfThereIsRoom() {
		SendQueueBudget budget = new SendQueueBudget(2);
		budget.take(write(1));
		budget.take(write(2));
		budget.take(write(3));
		assertThat(budget.give()).isTrue();
		// The drainer has not posted yet: a later Send must not overtake the waiting Write
		// (RFC 8166 §3.4.6: a reply's data is placed before its Send arrives).
		assertThat(budget.take(write(4))).isFalse();
		assertThat(budget.next().wrId()).isEqualTo(3);
		assertThat(budget.next()).isNull();
		assertThat(budget.give()).isTrue();
		assertThat(budget.next().wrId()).isEqualTo(4);
	}

	@Test
	void aRefusedPostFreesItsSlotForTheDrainersNextWork() {
		SendQueueBudget budget = new SendQueueBudget(1);
		budget.take(write(1));
		budget.take(write(2));
		budget.take(write(3));
		assertThat(budget.give()).isTrue();
		assertThat(budget.next().wrId()).isEqualTo(2);
		budget.refused();
		assertThat(budget.next().wrId()).isEqualTo(3);
		assertThat(budget.held()).isEqualTo(1);
	}

	@Test
	void closingHandsBackTheWaitingWorkToFlushAndLetsLaterWorkReachTheQueuePair() {
		SendQueueBudget budget = new SendQueueBudget(1);
		budget.take(write(1));
		budget.take(write(2));
		budget.take(write(3));

		SendWorkRequest[] flushed = budget.close();

		assertThat(flushed).extracting(SendWorkRequest::wrId).containsExactly(2L, 3L);
		assertThat(budget.waiting()).isZero();
		assertThat(budget.give()).as("nothing left to drain").isFalse();
		assertThat(budget.take(write(4))).as("the closed queue pair refuses or flushes it").isTrue();
	}

	@Test
	void aDepthBelowOneIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SendQueueBudget(0))
			.withMessage("A send queue depth must be positive, got 0");
	}

}
