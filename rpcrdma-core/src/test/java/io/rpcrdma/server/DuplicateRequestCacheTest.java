package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

/**
 * The cache on its own. Peers are requester addresses with their ports; a host's peers share
 * the host in their calls' identities, as {@link RpcDispatcher} makes them.
 */
class DuplicateRequestCacheTest {

	private static final String HOST = "10.0.0.7";

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	/** At most 3 entries per peer, 5 in all. */
	private final DuplicateRequestCache cache = new DuplicateRequestCache(3, 5, Duration.ofSeconds(60), 64,
			this.now::get);

	private static RequesterAddress peer(int port) {
		return new RequesterAddress(HOST, port);
	}

	private static CallIdentity call(int xid, int checksum) {
		return new CallIdentity(HOST, xid, 100_099, 1, 1, 8, checksum);
	}

	private static ByteBuffer reply(int value) {
		return ByteBuffer.allocate(4).putInt(0, value);
	}

	/** Admits and completes a call with checksum 7 and a reply holding {@code xid}. */
	private void executed(Object peer, int xid) {
		Admission admission = this.cache.admit(peer, call(xid, 7), null);
		assertThat(admission.verdict()).as("xid %d of %s", xid, peer).isEqualTo(Verdict.EXECUTE);
		this.cache.complete(admission.entry(), reply(xid));
	}

	private Verdict verdict(Object peer, int xid) {
		return verdict(peer, xid, 7);
	}

	private Verdict verdict(Object peer, int xid, int checksum) {
		return this.cache.admit(peer, call(xid, checksum), null).verdict();
	}

	@Test
	void aRetransmissionOfAFinishedCallReplaysItsReply() {
		executed(peer(1), 1);

		Admission again = this.cache.admit(peer(1), call(1, 7), null);

		assertThat(again.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(again.cachedReply().getInt(0)).isEqualTo(1);
		assertThat(again.cachedReply().isReadOnly()).isTrue();
		assertThat(this.cache.stats().hits()).isEqualTo(1);
		assertThat(this.cache.stats().misses()).isEqualTo(1);
	}

	@Test
	void aRetransmissionFromAnotherPortOfTheHostReplaysTheReply() {
		executed(peer(1), 1);

		// RFC 8166: the requester retransmits after reconnecting, from a new port.
		Admission reconnected = this.cache.admit(peer(2), call(1, 7), null);

		assertThat(reconnected.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(reconnected.cachedReply().getInt(0)).isEqualTo(1);
		assertThat(this.cache.entries(peer(2))).as("a replay takes no room").isZero();
	}

	@Test
	void theSameXidFromAnotherHostIsAnotherCall() {
		executed(peer(1), 1);

		CallIdentity elsewhere = new CallIdentity("10.0.0.8", 1, 100_099, 1, 1, 8, 7);
		assertThat(this.cache.admit(new RequesterAddress("10.0.0.8", 1), elsewhere, null).verdict())
			.isEqualTo(Verdict.EXECUTE);
	}

	@Test
	void theProgramVersionProcedureAndLengthArePartOfTheIdentity() {
		executed(peer(1), 1);

		assertThat(this.cache.admit(peer(2), new CallIdentity(HOST, 1, 100_099, 1, 2, 8, 7), null).verdict())
			.as("another procedure").isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.admit(peer(3), new CallIdentity(HOST, 1, 100_099, 2, 1, 8, 7), null).verdict())
			.as("another version").isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.admit(peer(4), new CallIdentity(HOST, 1, 100_098, 1, 1, 8, 7), null).verdict())
			.as("another program").isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.admit(peer(5), new CallIdentity(HOST, 1, 100_099, 1, 1, 12, 7), null).verdict())
			.as("another length").isEqualTo(Verdict.EXECUTE);
	}

	@Test
	void aPeerReusingTheXidOfItsFinishedCallReplacesItsEntry() {
		executed(peer(1), 1);

		Admission other = this.cache.admit(peer(1), call(1, 8), null);
		assertThat(other.verdict()).isEqualTo(Verdict.EXECUTE);
		this.cache.complete(other.entry(), reply(99));

		Admission again = this.cache.admit(peer(1), call(1, 8), null);
		assertThat(again.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(again.cachedReply().getInt(0)).isEqualTo(99);
		assertThat(verdict(peer(2), 1, 7)).as("the replaced call, now unknown").isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.stats().checksumMismatches()).isEqualTo(1);
	}

	@Test
	void aPeerReusingTheXidOfItsRunningCallIsDroppedAndTheOriginalKeepsItsEntry() {
		Admission original = this.cache.admit(peer(1), call(1, 7), null);

		assertThat(verdict(peer(1), 1, 8)).as("same xid, other contents, original running").isEqualTo(Verdict.DROP);
		this.cache.complete(original.entry(), reply(5));

		Admission retransmission = this.cache.admit(peer(2), call(1, 7), null);
		assertThat(retransmission.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(retransmission.cachedReply().getInt(0)).isEqualTo(5);
		assertThat(this.cache.stats().checksumMismatches()).isEqualTo(1);
		assertThat(this.cache.stats().dropped()).isEqualTo(1);
	}

	@Test
	void anotherPeersCallWithTheSameXidIsAnotherCallAndDisplacesNothing() {
		Admission victim = this.cache.admit(peer(1), call(1, 7), null);

		Admission running = this.cache.admit(peer(2), call(1, 8), null);
		assertThat(running.verdict()).as("while the victim's runs").isEqualTo(Verdict.EXECUTE);
		this.cache.complete(victim.entry(), reply(5));
		this.cache.complete(running.entry(), reply(6));
		assertThat(verdict(peer(3), 1, 9)).as("once it is done").isEqualTo(Verdict.EXECUTE);

		Admission retransmission = this.cache.admit(peer(4), call(1, 7), null);
		assertThat(retransmission.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(retransmission.cachedReply().getInt(0)).isEqualTo(5);
		assertThat(this.cache.stats().checksumMismatches()).isZero();
	}

	@Test
	void onOneConnectionAPrincipalNeverDropsOrDisplacesAnothersCallWithTheSameXid() {
		Admission alice = this.cache.admit(peer(1), new CallIdentity("alice at " + HOST, 1, 100_099, 1, 1, 8, 7), null);

		Admission bob = this.cache.admit(peer(1), new CallIdentity("bob at " + HOST, 1, 100_099, 1, 1, 8, 8), null);
		assertThat(bob.verdict()).isEqualTo(Verdict.EXECUTE);
		this.cache.complete(alice.entry(), reply(5));
		this.cache.complete(bob.entry(), reply(6));

		Admission again = this.cache.admit(peer(2), new CallIdentity("alice at " + HOST, 1, 100_099, 1, 1, 8, 7), null);
		assertThat(again.verdict()).isEqualTo(Verdict.REPLAY);
		assertThat(again.cachedReply().getInt(0)).isEqualTo(5);
	}

	@Test
	void aRetransmissionOfARunningCallWaitsForItsReply() {
		Admission original = this.cache.admit(peer(1), call(1, 7), null);
		List<ByteBuffer> received = new ArrayList<>();
		Consumer<ByteBuffer> waiter = received::add;

		assertThat(this.cache.admit(peer(2), call(1, 7), waiter).verdict()).isEqualTo(Verdict.WAIT);
		assertThat(received).isEmpty();
		this.cache.complete(original.entry(), reply(5));

		assertThat(received).singleElement().satisfies((buffer) -> assertThat(buffer.getInt(0)).isEqualTo(5));
		assertThat(this.cache.stats().waits()).isEqualTo(1);
	}

	@Test
	void retransmissionsBeyondTheWaiterLimitAreDropped() {
		this.cache.admit(peer(1), call(1, 7), null);
		for (int i = 0; i < DuplicateRequestCache.MAX_WAITERS; i++) {
			assertThat(this.cache.admit(peer(1), call(1, 7), (reply) -> {
			}).verdict()).isEqualTo(Verdict.WAIT);
		}

		assertThat(this.cache.admit(peer(1), call(1, 7), (reply) -> {
		}).verdict()).isEqualTo(Verdict.DROP);
		assertThat(verdict(peer(1), 1)).as("without a waiter").isEqualTo(Verdict.DROP);
		assertThat(this.cache.stats().dropped()).isEqualTo(2);
	}

	@Test
	void anAbandonedCallIsForgottenAndItsWaitersGetTheOriginalsAnswer() {
		Admission original = this.cache.admit(peer(1), call(1, 7), null);
		List<ByteBuffer> received = new ArrayList<>();
		this.cache.admit(peer(1), call(1, 7), received::add);

		this.cache.abandon(original.entry(), reply(-1));

		assertThat(received).singleElement().satisfies((buffer) -> assertThat(buffer.getInt(0)).isEqualTo(-1));
		assertThat(verdict(peer(1), 1)).as("a later retransmission executes").isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.peers()).isEqualTo(1);
	}

	@Test
	void eachPeerKeepsAtMostItsShareEvictingItsOldestReply() {
		executed(peer(1), 1);
		executed(peer(1), 2);
		executed(peer(1), 3);
		executed(peer(1), 4);

		assertThat(this.cache.stats().evictions()).isEqualTo(1);
		assertThat(this.cache.stats().entries()).isEqualTo(3);
		assertThat(verdict(peer(1), 4)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict(peer(1), 2)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict(peer(1), 1)).as("evicted, so executed again").isEqualTo(Verdict.EXECUTE);
	}

	@Test
	void aFloodFromAnotherPortOfTheHostEvictsOnlyTheFloodersReplies() {
		executed(peer(1), 1);
		executed(peer(1), 2);

		for (int xid = 100; xid < 200; xid++) {
			executed(peer(2), xid);
		}

		assertThat(verdict(peer(3), 1)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict(peer(3), 2)).isEqualTo(Verdict.REPLAY);
		assertThat(this.cache.entries(peer(2))).isEqualTo(3);
	}

	@Test
	void whenFullAPeerTakesRoomOnlyFromOneHoldingAtLeastTwoMore() {
		executed(peer(1), 1);
		executed(peer(1), 2);
		executed(peer(1), 3);
		executed(peer(2), 11);
		executed(peer(2), 12);

		executed(peer(3), 21);
		assertThat(this.cache.entries(peer(1))).as("the fullest gave up its oldest").isEqualTo(2);

		// Now 2, 2 and 1: nobody holds two more than peer 3, so it gives up its own.
		executed(peer(3), 22);
		assertThat(this.cache.entries(peer(1))).isEqualTo(2);
		assertThat(this.cache.entries(peer(2))).isEqualTo(2);
		assertThat(this.cache.entries(peer(3))).isEqualTo(1);
		assertThat(this.cache.stats().evictions()).isEqualTo(2);
		assertThat(verdict(peer(9), 2)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict(peer(9), 3)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict(peer(9), 11)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict(peer(9), 12)).isEqualTo(Verdict.REPLAY);
		assertThat(verdict(peer(9), 22)).isEqualTo(Verdict.REPLAY);
	}

	@Test
	void aFloodFromManyPortsNeverTakesTheReplyOfAPeerHoldingOne() {
		executed(peer(1), 1);

		for (int round = 0; round < 20; round++) {
			for (int flooder = 2; flooder <= 9; flooder++) {
				Admission admission = this.cache.admit(peer(flooder), call(1000 * flooder + round, 7), null);
				if (admission.verdict() == Verdict.EXECUTE) {
					this.cache.complete(admission.entry(), reply(0));
				}
				else {
					assertThat(admission.verdict()).as("no room left for a flooder").isEqualTo(Verdict.EXECUTE_UNCACHED);
				}
			}
		}

		assertThat(this.cache.stats().entries()).isEqualTo(5);
		assertThat(verdict(peer(10), 1)).isEqualTo(Verdict.REPLAY);
	}

	@Test
	void runningCallsAreNeverEvictedSoANewCallBeyondTheBoundRunsUncached() {
		this.cache.admit(peer(1), call(1, 7), null);
		this.cache.admit(peer(1), call(2, 7), null);
		this.cache.admit(peer(1), call(3, 7), null);

		assertThat(verdict(peer(1), 4)).isEqualTo(Verdict.EXECUTE_UNCACHED);
		assertThat(verdict(peer(1), 1)).isEqualTo(Verdict.DROP);
		assertThat(this.cache.stats().uncached()).isEqualTo(1);
		assertThat(this.cache.stats().evictions()).isZero();
	}

	@Test
	void repliesExpireAfterTheTtl() {
		executed(peer(1), 1);
		this.now.addAndGet(Duration.ofSeconds(59).toNanos());
		assertThat(verdict(peer(1), 1)).isEqualTo(Verdict.REPLAY);

		this.now.addAndGet(Duration.ofSeconds(1).toNanos());
		assertThat(verdict(peer(1), 1)).isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.stats().expirations()).isEqualTo(1);
	}

	@Test
	void repliesLargerThanTheLimitAreNotKept() {
		Admission admission = this.cache.admit(peer(1), call(1, 7), null);
		this.cache.complete(admission.entry(), ByteBuffer.allocate(65));

		assertThat(verdict(peer(1), 1)).isEqualTo(Verdict.EXECUTE);
		assertThat(this.cache.stats().uncached()).isEqualTo(1);
	}

	@Test
	void boundsThatCannotHoldOneEntryPerPeerAreRefused() {
		assertThatThrownBy(() -> new DuplicateRequestCache(8, 4, Duration.ofSeconds(1)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("8 per peer and 4 in all");
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
