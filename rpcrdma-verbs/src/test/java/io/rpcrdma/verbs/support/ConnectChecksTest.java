package io.rpcrdma.verbs.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

class ConnectChecksTest {

	private static final Function<QueuePair, RdmaProvider> OWNER = (qp) -> qp.attributes()
		.protectionDomain()
		.provider();

	private final RdmaProvider provider = RdmaProviders.open("loopback");

	private final RdmaProvider other = RdmaProviders.open("loopback");

	@AfterEach
	void closeProviders() {
		this.provider.close();
		this.other.close();
	}

	@Test
	void aQueuePairOfTheProviderInInitIsAccepted() {
		QueuePair qp = queuePair(this.provider);
		assertThat(ConnectChecks.ownQueuePair(this.provider, qp, QueuePair.class, OWNER)).isSameAs(qp);
		assertThat(ConnectChecks.acceptableQueuePair(this.provider, qp, QueuePair.class, OWNER)).isSameAs(qp);
	}

	@Test
	void aForeignOrMissingQueuePairIsRefusedNamingTheProvider() {
		QueuePair foreign = queuePair(this.other);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConnectChecks.ownQueuePair(this.provider, foreign, QueuePair.class, OWNER))
			.withMessage("Connect needs a queue pair created by this loopback provider, got " + foreign);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConnectChecks.ownQueuePair(this.provider, null, QueuePair.class, OWNER))
			.withMessage("Connect needs a queue pair created by this loopback provider, got null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConnectChecks.acceptableQueuePair(this.provider, foreign, QueuePair.class, OWNER))
			.withMessage("Accept needs a queue pair created by the listening loopback provider, got " + foreign);
	}

	@Test
	void aQueuePairPastInitIsRefused() {
		QueuePair qp = queuePair(this.provider);
		qp.close();
		int number = qp.queuePairNumber();
		assertThatExceptionOfType(QueuePairStateException.class)
			.isThrownBy(() -> ConnectChecks.acceptableQueuePair(this.provider, qp, QueuePair.class, OWNER))
			.withMessage("Accept needs a queue pair in INIT, but queue pair " + number + " is CLOSED");
		assertThat(ConnectChecks.alreadyConnecting(qp)).hasMessage(
				"Queue pair " + number + " is CLOSED or already connecting; connect a new queue pair in INIT");
	}

	private static QueuePair queuePair(RdmaProvider provider) {
		return provider.createQueuePair(QueuePairAttributes.of(provider.allocateProtectionDomain(),
				provider.createCompletionQueue(8, null)));
	}

}
