package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/**
 * The count of replies handed to the transport and not yet sent, which a graceful shutdown
 * waits for before closing the connections.
 */
class UnsentRepliesTest {

	@Test
	void drainedCompletesAtOnceWhenNothingIsUnsent() {
		UnsentReplies unsent = new UnsentReplies();
		unsent.sending();
		unsent.replied(1, null);

		assertThat(unsent.drained()).isDone();
	}

	@Test
	void drainedWaitsForEveryReplyHandedOverSentOrFailed() {
		UnsentReplies unsent = new UnsentReplies();
		unsent.sending();
		unsent.sending();

		CompletableFuture<Void> drained = unsent.drained();
		assertThat(drained).isNotDone();
		unsent.replied(1, new IllegalStateException("the connection went down"));
		assertThat(drained).isNotDone();
		unsent.sending();
		unsent.replied(2, null);
		assertThat(drained).as("a reply handed over meanwhile counts too").isNotDone();
		unsent.replied(3, null);

		assertThat(drained).isCompleted();
		assertThat(unsent.count()).isZero();
		assertThat(unsent.drained()).as("asked again").isSameAs(drained);
	}

}
