package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.WaitingCaller;

/**
 * The wait the service layer hands down for its synchronous calls is the one a provider sees
 * when work is posted: between {@link SynchronousWait#expect()} and
 * {@link SynchronousWait#end()} the posting thread counts as a waiting caller, and not after.
 */
class SynchronousWaitTest {

	@Test
	void aProviderSeesTheThreadAsWaitingBetweenExpectAndEnd() {
		SynchronousWait wait = new SynchronousWait();
		assertThat(WaitingCaller.current()).isNull();
		wait.expect();
		assertThat(WaitingCaller.current()).isNotNull();
		// Nothing was posted on a receive path: the thread parks instead of reading.
		assertThat(wait.receiveUntil(() -> true)).isFalse();
		wait.outcomeArrived();
		wait.end();
		assertThat(WaitingCaller.current()).isNull();
	}

	@Test
	void aCallNestedInAWaitDoesNotEndTheOuterWait() {
		SynchronousWait outer = new SynchronousWait();
		SynchronousWait nested = new SynchronousWait();
		outer.expect();
		nested.expect();
		nested.end();
		assertThat(WaitingCaller.current()).as("the outer call still waits").isNotNull();
		outer.end();
		assertThat(WaitingCaller.current()).isNull();
	}

	@Test
	void aWaitNeverExpectedDoesNothing() {
		SynchronousWait wait = new SynchronousWait();
		assertThat(wait.receiveUntil(() -> false)).isFalse();
		wait.outcomeArrived();
		wait.end();
		assertThat(WaitingCaller.current()).isNull();
	}

}
