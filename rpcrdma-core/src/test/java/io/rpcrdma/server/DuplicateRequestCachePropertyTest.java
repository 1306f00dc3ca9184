package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import io.rpcrdma.server.DuplicateRequestCache.Admission;

/**
 * Random sequences of calls, retransmissions, completions, abandonments and passing time
 * against a model: the bounds always hold, a replayed reply is always the one the same call
 * produced, and every admission is counted once.
 */
class DuplicateRequestCachePropertyTest {

	private static final String[] CLIENTS = { "a", "b", "c" };

	/** One step: kind 0-5 admit, 6-7 complete, 8 abandon, 9 let time pass. */
	record Step(int kind, int client, int xid, int checksum, int pick) {
	}

	record Call(String client, int xid, int checksum) {
	}

	@Property(tries = 200)
	void boundsHoldAndReplaysAreFaithful(@ForAll("steps") @Size(max = 120) List<Step> steps) {
		AtomicLong now = new AtomicLong();
		DuplicateRequestCache cache = new DuplicateRequestCache(3, 7, Duration.ofSeconds(10), 1024, now::get);
		Map<Call, Integer> completedReplies = new HashMap<>();
		List<Call> runningCalls = new ArrayList<>();
		List<DuplicateRequestCache.Entry> running = new ArrayList<>();
		int admissions = 0;
		int nextReply = 1;

		for (Step step : steps) {
			if (step.kind() <= 5) {
				Call call = new Call(CLIENTS[step.client()], step.xid(), step.checksum());
				Admission admission = cache.admit(call.client(), call.xid(), call.checksum(), (reply) -> {
				});
				admissions++;
				switch (admission.verdict()) {
					case EXECUTE -> {
						runningCalls.add(call);
						running.add(admission.entry());
					}
					case REPLAY -> assertThat(admission.cachedReply().getInt(0)).as("replay of %s", call)
						.isEqualTo(completedReplies.get(call));
					case WAIT, DROP -> assertThat(runningCalls).as("waiting on %s", call).contains(call);
					default -> {
					}
				}
			}
			else if (step.kind() <= 8 && !running.isEmpty()) {
				int index = step.pick() % running.size();
				DuplicateRequestCache.Entry entry = running.remove(index);
				Call call = runningCalls.remove(index);
				if (step.kind() <= 7) {
					int reply = nextReply++;
					// An entry another call with the same xid replaced finishes without being cached.
					boolean cached = entry.attached;
					cache.complete(entry, ByteBuffer.allocate(4).putInt(0, reply));
					if (cached) {
						completedReplies.put(call, reply);
					}
				}
				else {
					cache.abandon(entry, null);
				}
			}
			else if (step.kind() == 9) {
				now.addAndGet(Duration.ofSeconds(3).toNanos());
			}
			DuplicateRequestCacheStats stats = cache.stats();
			assertThat(stats.entries()).isLessThanOrEqualTo(7);
			for (String client : CLIENTS) {
				assertThat(cache.entries(client)).isLessThanOrEqualTo(3);
			}
			assertThat(stats.hits() + stats.waits() + stats.dropped() + stats.misses()).isEqualTo(admissions);
		}
	}

	@Provide
	Arbitrary<List<Step>> steps() {
		return Combinators
			.combine(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 2),
					Arbitraries.integers().between(0, 4), Arbitraries.integers().between(1, 2),
					Arbitraries.integers().between(0, 50))
			.as(Step::new)
			.list();
	}

}
