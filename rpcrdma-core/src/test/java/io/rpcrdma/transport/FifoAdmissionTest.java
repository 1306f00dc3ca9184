package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class FifoAdmissionTest {

	private final List<String> log = new ArrayList<>();

	private FifoAdmission.Waiter work(String name, long weight) {
		return new FifoAdmission.Waiter(weight, () -> this.log.add("start " + name), () -> this.log.add("abandon " + name));
	}

	@Test
	void weightsAreAdmittedWhileTheyFitAndWaitInArrivalOrder() {
		FifoAdmission share = new FifoAdmission(100);
		assertThat(share.admit(work("a", 60))).isFalse();
		assertThat(share.admit(work("b", 50))).as("60 + 50 exceeds 100").isTrue();
		assertThat(share.admit(work("c", 10))).as("fits, but must not overtake b").isTrue();
		assertThat(this.log).containsExactly("start a");

		share.release(60);

		assertThat(this.log).containsExactly("start a", "start b", "start c");
		assertThat(share.held()).isEqualTo(60);
		assertThat(share.highWater()).isEqualTo(60);
	}

	@Test
	void workHeavierThanTheLimitGoesAloneOnceNothingIsHeld() {
		FifoAdmission share = new FifoAdmission(100);
		share.admit(work("small", 10));
		share.admit(work("huge", 500));
		assertThat(this.log).containsExactly("start small");

		share.release(10);

		assertThat(this.log).containsExactly("start small", "start huge");
		share.admit(work("next", 1));
		assertThat(this.log).as("nothing joins the heavy one").containsExactly("start small", "start huge");
	}

	@Test
	void closingAbandonsTheWaitingAndEveryLaterOne() {
		FifoAdmission share = new FifoAdmission(1);
		share.admit(work("a", 1));
		share.admit(work("b", 1));

		share.close();
		share.release(1);
		share.admit(work("c", 1));

		assertThat(this.log).containsExactly("start a", "abandon b", "abandon c");
	}

}
