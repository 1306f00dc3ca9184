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
import io.rpcrdma.server.DuplicateRequestCache.Verdict;

/**
 * Random sequences of calls, retransmissions, completions, abandonments and passing time
 * against a model: the bounds always hold, a replayed reply is always the one the same call
 * produced, a call never executes while the same call, or its peer's call with the same xid,
 * runs, a peer takes room only from one holding at least two more entries, and every
 * admission is counted once. Peers a and b share a host; c is on another.
 */
class DuplicateRequestCachePropertyTest {

	private static final String[] PEERS = { "a", "b", "c" };

	private static final String[] HOSTS = { "h1", "h1", "h2" };

	/** One step: kind 0-5 admit, 6-7 complete, 8 abandon, 9 let time pass. */
	record Step(int kind, int peer, int xid, int checksum, int pick) {
	}

	record Call(String peer, CallIdentity identity) {
	}

	@Property(tries = 300)
	void boundsHoldReplaysAreFaithfulAndNoCallRunsTwice(@ForAll("steps") @Size(max = 120) List<Step> steps) {
		AtomicLong now = new AtomicLong();
		DuplicateRequestCache cache = new DuplicateRequestCache(3, 7, Duration.ofSeconds(10), 1024, now::get);
		Map<CallIdentity, Integer> completedReplies = new HashMap<>();
		List<Call> runningCalls = new ArrayList<>();
		List<DuplicateRequestCache.Entry> running = new ArrayList<>();
		int admissions = 0;
		int nextReply = 1;

		for (Step step : steps) {
			if (step.kind() <= 5) {
				CallIdentity identity = new CallIdentity(HOSTS[step.peer()], step.xid(), 100_099, 1, 1, 4,
						step.checksum());
				Call call = new Call(PEERS[step.peer()], identity);
				boolean sameRuns = runningCalls.stream().anyMatch((other) -> other.identity().equals(identity));
				boolean ownXidRuns = runningCalls.stream()
					.anyMatch((other) -> other.peer().equals(call.peer()) && other.identity().xid() == identity.xid());
				Map<String, Integer> held = new HashMap<>();
				for (String peer : PEERS) {
					held.put(peer, cache.entries(peer));
				}
				long expired = cache.stats().expirations();
				Admission admission = cache.admit(call.peer(), identity, (reply) -> {
				});
				admissions++;
				if (cache.stats().expirations() == expired) {
					for (String other : PEERS) {
						if (!other.equals(call.peer()) && cache.entries(other) < held.get(other)) {
							assertThat(held.get(other)).as("%s took room from %s, which held %s entries to its %s", call,
									other, held.get(other), held.get(call.peer()))
								.isGreaterThanOrEqualTo(held.get(call.peer()) + 2);
						}
					}
				}
				switch (admission.verdict()) {
					case EXECUTE, EXECUTE_UNCACHED -> {
						assertThat(sameRuns).as("%s executes while the same call runs", call).isFalse();
						assertThat(ownXidRuns).as("%s executes while its peer's call with that xid runs", call).isFalse();
						if (admission.verdict() == Verdict.EXECUTE) {
							runningCalls.add(call);
							running.add(admission.entry());
						}
					}
					case REPLAY -> assertThat(admission.cachedReply().getInt(0)).as("replay of %s", call)
						.isEqualTo(completedReplies.get(identity));
					case WAIT -> assertThat(sameRuns).as("%s waits on a running call", call).isTrue();
					case DROP -> assertThat(sameRuns || ownXidRuns).as("%s dropped for a running call", call).isTrue();
				}
			}
			else if (step.kind() <= 8 && !running.isEmpty()) {
				int index = step.pick() % running.size();
				DuplicateRequestCache.Entry entry = running.remove(index);
				Call call = runningCalls.remove(index);
				if (step.kind() <= 7) {
					int reply = nextReply++;
					boolean cached = entry.attached;
					cache.complete(entry, ByteBuffer.allocate(4).putInt(0, reply));
					if (cached) {
						completedReplies.put(call.identity(), reply);
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
			for (String peer : PEERS) {
				assertThat(cache.entries(peer)).isLessThanOrEqualTo(3);
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
