package io.rpcrdma.verbs.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionQueueOverrunException;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.verbs.support.CompletionRing;

/**
 * The software completion queue's ring: it starts small and grows only as completions pile
 * up (issue #34: a queue sized for 512 sends on an idle connection must not hold 512 slots),
 * without losing their order or its capacity.
 */
class CompletionRingTest {

	private static SoftwareCompletionQueue queue(int capacity) {
		return new SoftwareCompletionQueue(null, capacity, null, (closed) -> {
		});
	}

	private static void add(SoftwareCompletionQueue cq, long wrId) {
		cq.complete(wrId, CompletionOpcode.SEND, CompletionStatus.SUCCESS, (int) wrId, 7, false, 0, null);
	}

	private static List<Long> pollAll(SoftwareCompletionQueue cq, int batch) {
		List<Long> ids = new ArrayList<>();
		WorkCompletion[] completions = new WorkCompletion[batch];
		for (int n = cq.poll(completions); n > 0; n = cq.poll(completions)) {
			for (int i = 0; i < n; i++) {
				assertThat(completions[i].byteLength()).isEqualTo((int) completions[i].wrId());
				ids.add(completions[i].wrId());
			}
		}
		return ids;
	}

	@Test
	void aQueueForManyWorkRequestsStartsWithAFewSlotsAndStaysSmallWhileCompletionsArePolledAsTheyCome() {
		SoftwareCompletionQueue cq = queue(1040);
		assertThat(cq.slots()).isEqualTo(CompletionRing.INITIAL_SLOTS);
		for (long id = 0; id < 10_000; id++) {
			add(cq, id);
			assertThat(pollAll(cq, 4)).containsExactly(id);
		}
		assertThat(cq.slots()).isEqualTo(CompletionRing.INITIAL_SLOTS);
		assertThat(cq.capacity()).isEqualTo(1040);
	}

	@Test
	void completionsThatPileUpGrowTheRingToTheCapacityAndThenOverrunIt() {
		SoftwareCompletionQueue cq = queue(100);
		for (long id = 0; id < 100; id++) {
			add(cq, id);
		}
		assertThat(cq.slots()).isEqualTo(128);
		add(cq, 100);
		assertThatExceptionOfType(CompletionQueueOverrunException.class)
			.isThrownBy(() -> cq.poll(new WorkCompletion[1]))
			.withMessageContaining("capacity 100");
	}

	@Property(tries = 200)
	void growthKeepsTheOrderOfWaitingCompletions(@ForAll @IntRange(min = 1, max = 300) int capacity,
			@ForAll @IntRange(min = 0, max = 40) int pollFirst, @ForAll @IntRange(min = 1, max = 9) int batch) {
		SoftwareCompletionQueue cq = queue(capacity);
		List<Long> polled = new ArrayList<>();
		long next = 0;
		// Move the ring's head off slot 0 first, so that growth has to unwrap waiting entries.
		for (int i = 0; i < pollFirst; i++) {
			add(cq, next++);
			polled.addAll(pollAll(cq, batch));
		}
		for (int i = 0; i < capacity; i++) {
			add(cq, next++);
		}
		polled.addAll(pollAll(cq, batch));
		assertThat(polled).hasSize((int) next);
		for (int i = 0; i < polled.size(); i++) {
			assertThat(polled.get(i)).isEqualTo(i);
		}
		assertThat(cq.slots()).isGreaterThanOrEqualTo(capacity).isLessThan(2 * Math.max(capacity, 1) + 1);
	}

}
