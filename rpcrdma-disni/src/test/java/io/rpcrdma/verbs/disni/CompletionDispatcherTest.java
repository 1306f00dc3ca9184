package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.ibm.disni.verbs.IbvWC;

class CompletionDispatcherTest {

	private final List<String> log = new ArrayList<>();

	private final Map<Integer, TestQueuePair> queuePairs = new HashMap<>();

	private final CompletionDispatcher dispatcher = new CompletionDispatcher(this.queuePairs::get);

	@Test
	void eachCompletionGoesToTheQueuePairItsWrIdNamesWhateverQpNumSays() {
		TestQueue a = new TestQueue("a");
		TestQueue b = new TestQueue("b");
		queuePair(1, a);
		queuePair(2, b);
		this.dispatcher.dispatch(batch(WorkRequestIds.send(1, 0), WorkRequestIds.receive(2), WorkRequestIds.send(1, 1)),
				3);
		assertThat(this.queuePairs.get(1).delivered).containsExactly(WorkRequestIds.send(1, 0),
				WorkRequestIds.send(1, 1));
		assertThat(this.queuePairs.get(2).delivered).containsExactly(WorkRequestIds.receive(2));
	}

	@Test
	void eachQueueThatReceivedCompletionsIsToldOncePerBatchInTheOrderOfItsFirstCompletion() {
		TestQueue a = new TestQueue("a");
		TestQueue b = new TestQueue("b");
		TestQueue c = new TestQueue("c");
		queuePair(1, a);
		queuePair(2, b);
		queuePair(3, c);
		this.dispatcher.dispatch(batch(WorkRequestIds.receive(2), WorkRequestIds.receive(1), WorkRequestIds.receive(2),
				WorkRequestIds.send(1, 0), WorkRequestIds.receive(2)), 5);
		assertThat(this.log).isEmpty();
		this.dispatcher.notifyTouched();
		assertThat(this.log).containsExactly("notify b", "notify a");
		this.dispatcher.notifyTouched();
		assertThat(this.log).containsExactly("notify b", "notify a");
	}

	@Test
	void onlyTheFilledPartOfThePollArrayIsRead() {
		TestQueue a = new TestQueue("a");
		queuePair(1, a);
		queuePair(2, a);
		this.dispatcher.dispatch(batch(WorkRequestIds.receive(1), WorkRequestIds.receive(2)), 1);
		assertThat(this.queuePairs.get(1).delivered).hasSize(1);
		assertThat(this.queuePairs.get(2).delivered).isEmpty();
	}

	@Test
	void completionsOfAQueuePairThatIsGoneOrOfNoOutstandingWorkAreDroppedAndCounted() {
		TestQueue a = new TestQueue("a");
		queuePair(1, a).accepting = false;
		this.dispatcher.dispatch(batch(WorkRequestIds.receive(1), WorkRequestIds.send(7, 3)), 2);
		this.dispatcher.notifyTouched();
		assertThat(this.log).isEmpty();
		assertThat(this.dispatcher.dropped()).isEqualTo(2);
	}

	@Test
	void aHandlerThatPollsAgainFromInsideItsNotificationLosesNoQueueAndNotifiesNoneTwice() {
		TestQueue a = new TestQueue("a");
		TestQueue b = new TestQueue("b");
		TestQueue c = new TestQueue("c");
		queuePair(1, a);
		queuePair(2, b);
		queuePair(3, c);
		// a's handler closes its queue pair, which polls the shared queue for the flushes.
		a.onNotify = () -> {
			this.dispatcher.dispatch(batch(WorkRequestIds.receive(3), WorkRequestIds.receive(1)), 2);
			this.dispatcher.notifyTouched();
		};
		this.dispatcher.dispatch(batch(WorkRequestIds.receive(1), WorkRequestIds.receive(2)), 2);
		this.dispatcher.notifyTouched();
		assertThat(this.log).containsExactlyInAnyOrder("notify a", "notify b", "notify c", "notify a");
		assertThat(this.log).filteredOn("notify b"::equals).hasSize(1);
	}

	private TestQueuePair queuePair(int index, TestQueue queue) {
		TestQueuePair qp = new TestQueuePair(queue);
		this.queuePairs.put(index, qp);
		return qp;
	}

	static IbvWC[] batch(long... wrIds) {
		IbvWC[] polled = new IbvWC[wrIds.length];
		for (int i = 0; i < wrIds.length; i++) {
			polled[i] = new IbvWC();
			polled[i].setWr_id(wrIds[i]);
			polled[i].setQp_num(0x1234);
		}
		return polled;
	}

	private final class TestQueue implements CompletionDispatcher.Sink {

		private final String name;

		private Runnable onNotify = () -> {
		};

		private boolean notifying;

		TestQueue(String name) {
			this.name = name;
		}

		@Override
		public void notifyIfArmed() {
			log.add("notify " + this.name);
			if (!this.notifying) {
				this.notifying = true;
				try {
					this.onNotify.run();
				}
				finally {
					this.notifying = false;
				}
			}
		}

	}

	private static final class TestQueuePair implements CompletionDispatcher.Route {

		private final TestQueue queue;

		private final List<Long> delivered = new ArrayList<>();

		private boolean accepting = true;

		TestQueuePair(TestQueue queue) {
			this.queue = queue;
		}

		@Override
		public CompletionDispatcher.Sink deliver(IbvWC wc) {
			if (!this.accepting) {
				return null;
			}
			this.delivered.add(wc.getWr_id());
			return this.queue;
		}

	}

}
