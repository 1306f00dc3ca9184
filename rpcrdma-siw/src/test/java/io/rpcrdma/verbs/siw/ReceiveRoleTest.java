package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Who runs a siw connection's receive path: the I/O thread during its turns, a lone waiting
 * caller whenever the role is free; and the I/O thread waits for the socket again whenever it
 * found the role taken or a caller would otherwise be left without a reader.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReceiveRoleTest {

	private final AtomicInteger turnsAsked = new AtomicInteger();

	private final AtomicInteger looksAsked = new AtomicInteger();

	private final ReceiveRole role = new ReceiveRole(this.turnsAsked::incrementAndGet, this.looksAsked::incrementAndGet);

	private final Thread io = Thread.currentThread();

	private final Thread caller = new Thread(() -> {
	}, "caller");

	private final Thread other = new Thread(() -> {
	}, "other");

	@Test
	void aCallerTakesTheFreeRoleAndLeavesItWithoutAskingForATurn() {
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		assertThat(this.role.holder()).isEqualTo(this.caller);
		this.role.release(this.caller);
		assertThat(this.role.holder()).isNull();
		assertThat(this.turnsAsked).hasValue(0);
	}

	@Test
	void anIoThreadFindingTheRoleTakenLooksAgainLaterWhenTheCallerLeaves() {
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		assertThat(this.role.takeForTurn(this.io)).isFalse();
		assertThat(this.looksAsked).hasValue(0);
		this.role.release(this.caller);
		// A look once the caller window has passed, not a wait for the socket beside the next
		// caller: no byte came that a caller left unread.
		assertThat(this.looksAsked).hasValue(1);
		assertThat(this.turnsAsked).hasValue(0);
		assertThat(this.role.takeForTurn(this.io)).isTrue();
		this.role.releaseTurn();
		// The mark was used up: the next caller leaves without asking again.
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		this.role.release(this.caller);
		assertThat(this.looksAsked).hasValue(1);
		assertThat(this.turnsAsked).hasValue(0);
	}

	@Test
	void aCallerFindingTheIoThreadInItsTurnFollowsAndLaterCallersFollowToo() {
		assertThat(this.role.takeForTurn(this.io)).isTrue();
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.FOLLOWING);
		this.role.releaseTurn();
		// A follower waits: the next caller follows rather than lead past it.
		assertThat(this.role.takeOrFollow(this.other)).isEqualTo(ReceiveRole.Outcome.FOLLOWING);
		// It found the role free: the I/O thread reads for it.
		assertThat(this.turnsAsked).hasValue(1);
		this.role.followerDone();
		this.role.followerDone();
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
	}

	@Test
	void aLeaderLeavingFollowersHasTheIoThreadWaitForTheSocket() {
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		assertThat(this.role.takeOrFollow(this.other)).isEqualTo(ReceiveRole.Outcome.FOLLOWING);
		this.role.release(this.caller);
		assertThat(this.turnsAsked).hasValue(1);
		this.role.followerDone();
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		this.role.release(this.caller);
		assertThat(this.turnsAsked).hasValue(1);
	}

	@Test
	void anIdleLookTakesOnlyAFreeRoleAndLeavesNoMark() {
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		assertThat(this.role.tryTake(this.io)).isFalse();
		this.role.release(this.caller);
		assertThat(this.turnsAsked).hasValue(0);
		assertThat(this.role.tryTake(this.io)).isTrue();
		this.role.releaseTurn();
	}

	@Test
	void aClosedRoleTurnsCallersAway() {
		this.role.close();
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.CLOSED);
		assertThat(this.role.takeForTurn(this.io)).isTrue();
		this.role.releaseTurn();
	}

}
