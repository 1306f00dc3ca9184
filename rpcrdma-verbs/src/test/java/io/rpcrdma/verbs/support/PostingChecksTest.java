package io.rpcrdma.verbs.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.util.EnumSet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.InvalidWorkRequestException;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;

/**
 * Pins the refusals of {@link PostingChecks} word for word, as every provider's queue pair
 * throws them, the DiSNI provider's (with its notes) included, which the conformance kit
 * reaches only with a device.
 */
class PostingChecksTest {

	private RdmaProvider provider;

	private QueuePairAttributes attributes;

	private ScatterGatherEntry sge;

	@BeforeEach
	void openProvider() {
		this.provider = RdmaProviders.open("loopback");
		ProtectionDomain pd = this.provider.allocateProtectionDomain();
		this.attributes = QueuePairAttributes.of(pd, this.provider.createCompletionQueue(8, null)).withMaxSges(2, 1);
		this.sge = ScatterGatherEntry
			.of(pd.registerMemory(ByteBuffer.allocateDirect(64), EnumSet.of(AccessFlag.LOCAL_WRITE)), 0, 8);
	}

	@AfterEach
	void closeProvider() {
		this.provider.close();
	}

	@Test
	void workRequestsWithinTheScatterGatherLimitsPass() {
		PostingChecks checks = new PostingChecks(7, this.attributes);
		assertThatCode(() -> {
			checks.checkSendSges(SendWorkRequest.send(1, this.sge, this.sge));
			checks.checkReceiveSges(ReceiveWorkRequest.of(2, this.sge));
			checks.checkSendable(QueuePairState.RTS);
			checks.checkSendable(QueuePairState.ERROR);
		}).doesNotThrowAnyException();
	}

	@Test
	void softwareProvidersRefuseWithThePlainMessages() {
		PostingChecks checks = new PostingChecks(7, this.attributes);
		assertThatExceptionOfType(InvalidWorkRequestException.class)
			.isThrownBy(() -> checks.checkSendSges(SendWorkRequest.send(11, this.sge, this.sge, this.sge)))
			.withMessage("Send work request 11 has 3 scatter/gather entries but queue pair 7 allows 2 (maxSendSges); "
					+ "split the request or create the queue pair with more");
		assertThatExceptionOfType(InvalidWorkRequestException.class)
			.isThrownBy(() -> checks.checkReceiveSges(ReceiveWorkRequest.of(12, this.sge, this.sge)))
			.withMessage("Receive work request 12 has 2 scatter/gather entries but queue pair 7 allows 1 "
					+ "(maxReceiveSges); create the queue pair with more");
		assertThatExceptionOfType(QueuePairStateException.class)
			.isThrownBy(() -> checks.checkSendable(QueuePairState.INIT))
			.withMessage("Queue pair 7 is not connected yet (INIT); post receives now and sends once connect or "
					+ "accept has established the connection");
		assertThat(checks.closed()).isInstanceOf(QueuePairStateException.class)
			.hasMessage("Queue pair 7 is closed; create a new one");
		assertThat(checks.sendQueueFull(4)).hasMessage("Send queue of queue pair 7 is full: 4 work requests "
				+ "outstanding (maxSendWorkRequests); wait for completions before posting more, or create the queue "
				+ "pair with a deeper send queue");
		assertThat(checks.receiveQueueFull(2)).hasMessage("Receive queue of queue pair 7 is full: 2 receives "
				+ "outstanding (maxReceiveWorkRequests); post no more receives than the queue depth, or create the "
				+ "queue pair with a deeper receive queue");
	}

	@Test
	void aProviderAddsItsNotesWhereTheyExplainItsLimits() {
		PostingChecks checks = new PostingChecks(3, this.attributes, " (at most 4 on this provider)",
				" (a signaled completion also retires the unsignaled work requests before it)");
		assertThatExceptionOfType(InvalidWorkRequestException.class)
			.isThrownBy(() -> checks.checkSendSges(SendWorkRequest.send(11, this.sge, this.sge, this.sge)))
			.withMessage("Send work request 11 has 3 scatter/gather entries but queue pair 3 allows 2 (maxSendSges); "
					+ "split the request or create the queue pair with more (at most 4 on this provider)");
		assertThatExceptionOfType(InvalidWorkRequestException.class)
			.isThrownBy(() -> checks.checkReceiveSges(ReceiveWorkRequest.of(12, this.sge, this.sge)))
			.withMessage("Receive work request 12 has 2 scatter/gather entries but queue pair 3 allows 1 "
					+ "(maxReceiveSges); create the queue pair with more (at most 4 on this provider)");
		assertThat(checks.sendQueueFull(16)).hasMessage("Send queue of queue pair 3 is full: 16 work requests "
				+ "outstanding (maxSendWorkRequests); wait for completions before posting more (a signaled completion "
				+ "also retires the unsignaled work requests before it), or create the queue pair with a deeper send "
				+ "queue");
	}

}
