package io.rpcrdma.verbs.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;

class ProviderObjectsTest {

	private final List<String> closed = new ArrayList<>();

	@Test
	void anOpenProviderPassesTheCheck() {
		ProviderObjects objects = new ProviderObjects("siw");
		assertThat(objects.isClosed()).isFalse();
		assertThatCode(objects::checkOpen).doesNotThrowAnyException();
	}

	@Test
	void aClosedProviderRefusesWithItsName() {
		ProviderObjects objects = new ProviderObjects("loopback");
		assertThat(objects.close()).isTrue();
		assertThat(objects.isClosed()).isTrue();
		assertThatIllegalStateException().isThrownBy(objects::checkOpen)
			.withMessage("The loopback provider is closed; open a new one with RdmaProviders.open(\"loopback\")");
	}

	@Test
	void closingClosesWhatIsOpenInTheOrderOfVerbsTeardownOnce() {
		ProviderObjects objects = new ProviderObjects("siw");
		objects.protectionDomainOpened(recording(ProtectionDomain.class, "pd"));
		objects.completionQueueOpened(recording(CompletionQueue.class, "cq"));
		objects.queuePairOpened(recording(QueuePair.class, "qp"));
		objects.connectionOpened(recording(RdmaConnection.class, "connection"));
		objects.listenerOpened(recording(RdmaListener.class, "listener"));
		assertThat(objects.close()).isTrue();
		assertThat(this.closed).containsExactly("listener close", "connection disconnect", "qp close", "cq close",
				"pd close");
		assertThat(objects.close()).isFalse();
		assertThat(this.closed).hasSize(5);
	}

	@Test
	void objectsClosedBeforeTheProviderAreForgotten() {
		ProviderObjects objects = new ProviderObjects("siw");
		ProtectionDomain pd = recording(ProtectionDomain.class, "pd");
		CompletionQueue cq = recording(CompletionQueue.class, "cq");
		QueuePair qp = recording(QueuePair.class, "qp");
		RdmaConnection connection = recording(RdmaConnection.class, "connection");
		RdmaListener listener = recording(RdmaListener.class, "listener");
		objects.protectionDomainOpened(pd);
		objects.completionQueueOpened(cq);
		objects.queuePairOpened(qp);
		objects.connectionOpened(connection);
		objects.listenerOpened(listener);
		objects.protectionDomainClosed(pd);
		objects.completionQueueClosed(cq);
		objects.queuePairClosed(qp);
		objects.connectionClosed(connection);
		objects.listenerClosed(listener);
		objects.close();
		assertThat(this.closed).isEmpty();
	}

	/** An object that records the closing calls made on it, and answers nothing else. */
	private <T> T recording(Class<T> type, String name) {
		return Stand.in(type, name, Set.of("close", "disconnect"),
				(object, method) -> this.closed.add(name + " " + method));
	}

}
