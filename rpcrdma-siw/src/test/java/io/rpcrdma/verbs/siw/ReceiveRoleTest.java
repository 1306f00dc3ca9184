package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Who runs a siw connection's receive path: the receive thread by default, a lone waiting
 * caller once the receive thread steps down, and the receive thread again whenever a caller
 * would otherwise be left without a reader.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReceiveRoleTest {

	private static final BooleanSupplier RUNNING = () -> false;

	private final ReceiveRole role = new ReceiveRole();

	private final Thread rx = Thread.currentThread();

	private final Thread caller = new Thread(() -> {
	}, "caller");

	private final Thread other = new Thread(() -> {
	}, "other");

	@Test
	void theReceiveThreadTakesTheRoleFirstAndALoneCallerFollowsAndAsksItToStepDown() {
		this.role.awaitTurn(this.rx, RUNNING);
		assertThat(this.role.holder()).isSameAs(this.rx);
		assertThat(this.role.askedToStepDown()).as("nobody asked").isFalse();

		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.FOLLOWING);
		assertThat(this.role.askedToStepDown()).as("not while its follower waits for its reply").isFalse();
		this.role.followerDone();
		assertThat(this.role.askedToStepDown()).isTrue();

		this.role.stepDown(this.rx);
		assertThat(this.role.holder()).isNull();
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		assertThat(this.role.holder()).isSameAs(this.caller);
	}

	@Test
	void aCallerFindingAnotherOneWaitingFollowsEvenWhenTheRoleIsFree() {
		this.role.awaitTurn(this.rx, RUNNING);
		this.role.release(this.rx, false);
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.TAKEN);
		assertThat(this.role.takeOrFollow(this.other)).isEqualTo(ReceiveRole.Outcome.FOLLOWING);
		this.role.release(this.caller, false);
		// The follower is left: a third caller follows too, and the receive thread takes over
		// at once, however recently the role was released.
		assertThat(this.role.takeOrFollow(new Thread(() -> {
		}))).isEqualTo(ReceiveRole.Outcome.FOLLOWING);
		this.role.awaitTurn(this.rx, RUNNING);
		assertThat(this.role.holder()).isSameAs(this.rx);
		assertThat(this.role.askedToStepDown()).as("several followers: the receive thread serves them").isFalse();
	}

	@Test
	void workNobodyWaitsForKeepsTheReceiveThreadReading() {
		this.role.awaitTurn(this.rx, RUNNING);
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.FOLLOWING);
		this.role.followerDone();
		this.role.unawaitedPost();
		assertThat(this.role.askedToStepDown()).as("an asynchronous call's reply may still come").isFalse();
	}

	@Test
	void aClosedRoleIsTakenByNoCaller() {
		this.role.awaitTurn(this.rx, RUNNING);
		this.role.close();
		this.role.release(this.rx, true);
		assertThat(this.role.takeOrFollow(this.caller)).isEqualTo(ReceiveRole.Outcome.CLOSED);
		this.role.awaitTurn(this.rx, RUNNING);
		assertThat(this.role.holder()).isSameAs(this.rx);
	}

}
