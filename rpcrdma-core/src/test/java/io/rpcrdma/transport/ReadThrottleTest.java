package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ReadThrottleTest {

	private final TransportCounters counters = new TransportCounters();

	private final List<String> log = new ArrayList<>();

	private ReadThrottle.Read read(String name) {
		return new ReadThrottle.Read(() -> this.log.add("start " + name), () -> this.log.add("abandon " + name));
	}

	@Test
	void readsBeyondTheLimitWaitAndStartInFifoOrderAsEarlierOnesComplete() {
		ReadThrottle throttle = new ReadThrottle(2, this.counters);
		for (String name : List.of("a", "b", "c", "d", "e")) {
			throttle.submit(read(name));
		}
		assertThat(this.log).containsExactly("start a", "start b");
		assertThat(throttle.waiting()).isEqualTo(3);

		throttle.release();
		assertThat(this.log).containsExactly("start a", "start b", "start c");
		throttle.release();
		throttle.release();
		assertThat(this.log).containsExactly("start a", "start b", "start c", "start d", "start e");
		assertThat(throttle.inFlight()).isEqualTo(2);
		assertThat(this.counters.snapshot().readsInFlightHighWater()).isEqualTo(2);
		assertThat(this.counters.snapshot().readsQueued()).isEqualTo(3);
	}

	@Test
	void aLaterReadDoesNotOvertakeWaitingOnesWhenASlotIsFree() {
		ReadThrottle throttle = new ReadThrottle(1, this.counters);
		throttle.submit(read("a"));
		throttle.submit(read("b"));
		throttle.limit(1);
		assertThat(this.log).containsExactly("start a");
		throttle.release();
		throttle.submit(read("c"));
		assertThat(this.log).containsExactly("start a", "start b");
	}

	@Test
	void raisingTheLimitStartsWaitingReadsAtOnce() {
		ReadThrottle throttle = new ReadThrottle(1, this.counters);
		throttle.submit(read("a"));
		throttle.submit(read("b"));
		throttle.submit(read("c"));

		throttle.limit(3);

		assertThat(this.log).containsExactly("start a", "start b", "start c");
		assertThat(this.counters.snapshot().readsInFlightHighWater()).isEqualTo(3);
	}

	@Test
	void closingAbandonsWaitingReadsAndEveryLaterOne() {
		ReadThrottle throttle = new ReadThrottle(1, this.counters);
		throttle.submit(read("a"));
		throttle.submit(read("b"));

		throttle.close();
		throttle.release();
		throttle.submit(read("c"));

		assertThat(this.log).containsExactly("start a", "abandon b", "abandon c");
	}

}
