package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.server.DuplicateRequestCache.Admission;
import io.rpcrdma.server.DuplicateRequestCache.Verdict;

class DuplicateRequestCacheTest {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final DuplicateRequestCache cache = new DuplicateRequestCache(3, 5, Duration.ofSeconds(60), 64,
			this.now::get);

	private static ByteBuffer reply(int value) {
		return ByteBuffer.allocate(4).putInt(0, value);
	}

	/** Admits and completes a call with a reply holding {@code xid}. */
	private void executed(Object client, int xid) {
		Admission admission = this.cache.admit(client, xid, 7, null);
		assertThat(admission.verdict()).isEqualTo(Verdict.EXECUTE);
		this.cache.complete(admission.entry(), reply(xid));
	}

	private Verdict verdict(Object client, int xid) {
		return this.cache.admit(client, xid, 7, null).verdict();
	}

	@Test
	void aRetransmissionOfAFinishedCallReplaysItsReply() {
		executed("a", 1);

		Admission again = this.cache.admit("a", 1, 7, null);

		assertThat(again.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(again.cachedReply().getInt(0)).isEqualTo(1);
		assertThat(again.cachedReply().isReadOnly()).isTrue();
		assertThat(this.cache.stats().hits()).isEqualTo(1);
		assertThat(this.cache.stats().misses()).isEqualTo(1);
	}

	@Test
	void theSameXidFromAnotherClientIsAnotherCall() {
		executed("a", 1);

		assertThat(verdict("b", 1)).isEqualTo(Verdict.EXECUTE);
	}

	@Test
	void theSameXidWithAnotherChecksumExecutesAndReplacesTheEntry() {
		executed("a", 1);

		Admission other = this.cache.admit("a", 1, 8, null);
		assertThat(other.verdict()).isEqualTo(Verdict.EXECUTE);
		this.cache.complete(other.entry(), reply(99));

		Admission again = this.cache.admit("a", 1, 8, null);
		assertThat(again.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(again.cachedReply().getInt(0)).isEqualTo(99);
		assertThat(this.cache.stats().checksumMismatches()).isEqualTo(1);
		assertThat(this.cache.stats().entries()).isEqualTo(1);
	}

	@Test
	void aRetransmissionOfARunningCallWaitsForItsReply() {
		Admission original = this.cache.admit("a", 1, 7, null);
		List<ByteBuffer> received = new ArrayList<>();
		Consumer<ByteBuffer> waiter = received::add;

		assertThat(this.cache.admit("a", 1, 7, waiter).verdict()).isEqualTo(Verdict.WAIT);
		assertThat(received).isEmpty();
		this.cache.complete(original.entry(), reply(5));

		assertThat(received).singleElement().satisfies((buffer) -> assertThat(buffer.getInt(0)).isEqualTo(5));
		assertThat(this.cache.stats().waits()).isEqualTo(1);
	}

	@Test
	void retransmissionsBeyondTheWaiterLimitAreDropped() {
		this.cache.admit("a", 1, 7, null);
		for (int i = 0; i < DuplicateRequestCache.MAX_WAITERS; i++) {
			assertThat(this.cache.admit("a", 1, 7, (reply) -> {
			}).verdict()).isEqualTo(Verdict.WAIT);
		}

		assertThat(this.cache.admit("a", 1, 7, (reply) -> {
		}).verdict()).isEqualTo(Verdict.DROP);
		assertThat(verdict("a", 1)).as("without a waiter").isEqualTo(Verdict.DROP);
		assertThat(this.cache.stats().dropped()).isEqualTo(2);
	}

	@Test
	void anAbandonedCallIsForgottenAndItsWaitersGetTheOriginalsAnswer() {
		Admission original = this.cache.admit("a", 1, 7, null);
		List<ByteBuffer> received = new ArrayList<>();
		this.cache.admit("a", 1, 7, received::add);

		this.cache.abandon(original.entry(), reply(-1));

		assertThat(received).singleElement().satisfies((buffer) -> assertThat(buffer.getInt(0)).isEqualTo(-1));
		assertThat(verdict("a", 1)).as("a later retransmission executes").isEqualTo(Verdict.EXECUTE);
	}

	@Test
	void eachClientKeepsAtMostItsShareEvictingItsOldestReply() {
		executed("a", 1);
		executed("a", 2);
		executed("a", 3);
		executed("a", 4);

		assertThat(this.cache.stats().evictions()).isEqualTo(1);
		assertThat(this.cache.stats().entries()).isEqualTo(3);
		assertThat(verdict("a", 4)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict("a", 2)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict("a", 1)).as("evicted, so executed again").isEqualTo(Verdict.EXECUTE);
	}

	@Test
	void theCacheKeepsAtMostItsTotalEvictingTheOldestReplyOfAnyClient() {
		executed("a", 1);
		executed("b", 1);
		executed("c", 1);
		executed("d", 1);
		executed("e", 1);
		executed("f", 1);

		assertThat(this.cache.stats().entries()).isEqualTo(5);
		assertThat(this.cache.stats().evictions()).isEqualTo(1);
		assertThat(verdict("f", 1)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict("b", 1)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict("a", 1)).isEqualTo(Verdict.EXECUTE);
	}

	@Test
	void runningCallsAreNeverEvictedSoANewCallBeyondTheBoundRunsUncached() {
		this.cache.admit("a", 1, 7, null);
		this.cache.admit("a", 2, 7, null);
		this.cache.admit("a", 3, 7, null);

		assertThat(verdict("a", 4)).isEqualTo(Verdict.EXECUTE_UNCACHED);
		assertThat(verdict("a", 1)).isEqualTo(Verdict.DROP);
		assertThat(this.cache.stats().uncached()).isEqualTo(1);
		assertThat(this.cache.stats().evictions()).isZero();
	}

	@Test
	void repliesExpireAfterTheTtl() {
		executed("a", 1);
		this.now.addAndGet(Duration.ofSeconds(59).toNanos());
		assertThat(verdict("a", 1)).isEqualTo(Verdict.REPLAY);

		this.now.addAndGet(Duration.ofSeconds(1).toNanos());
		assertThat(verdict("a", 1)).isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.stats().expirations()).isEqualTo(1);
	}

	@Test
	void repliesLargerThanTheLimitAreNotKept() {
		Admission admission = this.cache.admit("a", 1, 7, null);
		this.cache.complete(admission.entry(), ByteBuffer.allocate(65));

		assertThat(verdict("a", 1)).isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.stats().uncached()).isEqualTo(1);
	}

	@Test
	void theChecksumCoversEverythingAfterTheXid() {
		ByteBuffer call = Wire.call(RpcCall.of(1, 100_099, 1, 1), 5);
		ByteBuffer otherXid = Wire.call(RpcCall.of(2, 100_099, 1, 1), 5);
		ByteBuffer otherArgument = Wire.call(RpcCall.of(1, 100_099, 1, 1), 6);
		ByteBuffer otherProcedure = Wire.call(RpcCall.of(1, 100_099, 1, 2), 5);

		int checksum = DuplicateRequestCache.checksum(call);

		assertThat(call.position()).isZero();
		assertThat(DuplicateRequestCache.checksum(otherXid)).isEqualTo(checksum);
		assertThat(DuplicateRequestCache.checksum(otherArgument)).isNotEqualTo(checksum);
		assertThat(DuplicateRequestCache.checksum(otherProcedure)).isNotEqualTo(checksum);
	}

}
