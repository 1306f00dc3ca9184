package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class ConnectionWaitersTest {

	private static ConnectionWaiters.Waiter waiter(int failures) {
		return new ConnectionWaiters.Waiter(new PoolCall(null), 0, failures);
	}

	@Test
	void aWaiterLeavesAfterTheFailedAttemptsItIsAllowed() {
		ConnectionWaiters waiters = new ConnectionWaiters();
		ConnectionWaiters.Waiter fresh = waiter(0);
		ConnectionWaiters.Waiter seasoned = waiter(1);
		waiters.add(fresh);
		waiters.add(seasoned);

		assertThat(waiters.attemptFailed(2)).containsExactly(seasoned);
		assertThat(waiters.size()).isOne();
		assertThat(waiters.attemptFailed(2)).containsExactly(fresh);
		assertThat(waiters.isEmpty()).isTrue();
	}

	@Test
	void noWaiterLeavesBeforeItsAllowance() {
		ConnectionWaiters waiters = new ConnectionWaiters();
		waiters.add(waiter(0));

		assertThat(waiters.attemptFailed(3)).isEmpty();
		assertThat(waiters.attemptFailed(3)).isEmpty();
		assertThat(waiters.size()).isOne();
	}

	@Test
	void drainGivesEveryWaiterInArrivalOrderAndLeavesNone() {
		ConnectionWaiters waiters = new ConnectionWaiters();
		ConnectionWaiters.Waiter first = waiter(0);
		ConnectionWaiters.Waiter second = waiter(0);
		waiters.add(first);
		waiters.add(second);
		waiters.remove(first);
		waiters.add(first);

		assertThat(waiters.drain()).containsExactly(second, first);
		assertThat(waiters.isEmpty()).isTrue();
	}

	@Test
	void unreachableNamesTheWaitAndTheLastFailure() {
		ConnectionWaiters.Waiter waiter = waiter(0);
		IOException refused = new IOException("connection refused");

		ServerUnreachableException ex = waiter.unreachable("client 'greeter'", "rdma://server:20049",
				Duration.ofMillis(250).toNanos(), refused, 3);

		assertThat(ex).hasCause(refused);
		assertThat(ex.getMessage()).contains("client 'greeter'", "rdma://server:20049", "3", "250");
	}

}
