package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Completion;
import io.rpcrdma.verbs.conformance.CompletionRecorder;

/**
 * Many connections of the {@code disni} provider on a real device share its few adapter
 * completion queues and their threads (docs/hardware.md, "Threads and what a connection
 * costs"), and each connection's queues still see only its own completions. Skipped where
 * DiSNI cannot run; the interop lab runs it on Linux's siw and Soft-RoCE (DisniLabTest).
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniSharedCompletionQueuesTest {

	private static final int CONNECTIONS = 200;

	private static final int FIRST = 10;

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private final List<RdmaProvider> providers = new ArrayList<>();

	@AfterEach
	void close() {
		this.providers.forEach(RdmaProvider::close);
	}

	@Test
	void twoHundredConnectionsShareTheCompletionThreadsAndEachSeesOnlyItsOwnCompletions() throws Exception {
		RdmaProvider server = open();
		RdmaProvider client = open();
		ProtectionDomain serverPd = server.allocateProtectionDomain();
		ProtectionDomain clientPd = client.allocateProtectionDomain();
		// Two receives of 64 bytes per server connection, one 8-byte message per client.
		MemoryRegion receiveMemory = serverPd.registerMemory(ByteBuffer.allocateDirect(CONNECTIONS * 128),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		MemoryRegion sendMemory = clientPd.registerMemory(ByteBuffer.allocateDirect(CONNECTIONS * 8),
				EnumSet.of(AccessFlag.LOCAL_WRITE));
		LinkedBlockingQueue<QueuePair> accepting = new LinkedBlockingQueue<>();
		RdmaListener listener = server.listen(new InetSocketAddress(DisniTestDevice.address(), 0), (request) -> {
			QueuePair qp = accepting.poll();
			if (qp == null) {
				request.reject(PrivateData.EMPTY);
			}
			else {
				request.accept(qp, PrivateData.EMPTY, null);
			}
		});
		List<Side> servers = new ArrayList<>();
		List<Side> clients = new ArrayList<>();
		int threadsAfterFirst = 0;
		for (int i = 0; i < CONNECTIONS; i++) {
			Side serverSide = side(server, serverPd);
			for (int r = 0; r < 2; r++) {
				serverSide.qp.postRecv(new ReceiveWorkRequest(i * 2L + r,
						List.of(new ScatterGatherEntry(receiveMemory, (i * 2 + r) * 64, 64))));
			}
			accepting.add(serverSide.qp);
			Side clientSide = side(client, clientPd);
			RdmaConnection connection = client
				.connect(clientSide.qp, ConnectParameters.to(listener.localAddress()).withTimeout(DEADLINE))
				.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(connection.isConnected()).isTrue();
			servers.add(serverSide);
			clients.add(clientSide);
			if (i + 1 == FIRST) {
				threadsAfterFirst = disniThreads();
			}
		}
		listener.close();
		assertThat(disniThreads()).as("threads after %d connections as after %d", CONNECTIONS, FIRST)
			.isEqualTo(threadsAfterFirst);
		int perProvider = DisniSettings.defaults().completionQueues();
		// cm, events and the completion threads of each provider; no thread per connection.
		assertThat(threadsAfterFirst).isLessThanOrEqualTo(2 * (2 + perProvider));

		for (int i = 0; i < CONNECTIONS; i++) {
			sendMemory.buffer().putLong(i * 8, i);
			clients.get(i).qp.postSend(SendWorkRequest.send(1000 + i, new ScatterGatherEntry(sendMemory, i * 8, 8)));
		}
		for (int i = 0; i < CONNECTIONS; i++) {
			Completion sent = clients.get(i).completions.next();
			assertThat(sent.wrId()).isEqualTo(1000 + i);
			assertThat(sent.status()).isEqualTo(CompletionStatus.SUCCESS);
			Completion received = servers.get(i).completions.next();
			assertThat(received.status()).isEqualTo(CompletionStatus.SUCCESS);
			assertThat(received.wrId()).isEqualTo(i * 2L);
			assertThat(received.byteLength()).isEqualTo(8);
			assertThat(receiveMemory.buffer().getLong(i * 128)).isEqualTo(i);
		}

		// Closing one connection flushes its own remaining receive, nobody else's.
		servers.get(0).qp.close();
		Completion flushed = servers.get(0).completions.next();
		assertThat(flushed.wrId()).isEqualTo(1);
		assertThat(flushed.status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		sendMemory.buffer().putLong(8, 4242);
		clients.get(1).qp.postSend(SendWorkRequest.send(7, new ScatterGatherEntry(sendMemory, 8, 8)));
		assertThat(clients.get(1).completions.next().status()).isEqualTo(CompletionStatus.SUCCESS);
		Completion second = servers.get(1).completions.next();
		assertThat(second.status()).isEqualTo(CompletionStatus.SUCCESS);
		assertThat(second.wrId()).isEqualTo(3);
		for (int i = 2; i < CONNECTIONS; i++) {
			assertThat(servers.get(i).completions.drainRecorded()).as("connection %d", i).isEmpty();
		}
	}

	private RdmaProvider open() {
		RdmaProvider provider = DisniTestDevice.open();
		this.providers.add(provider);
		return provider;
	}

	private static Side side(RdmaProvider provider, ProtectionDomain pd) {
		CompletionRecorder completions = new CompletionRecorder(DEADLINE);
		CompletionQueue cq = provider.createCompletionQueue(8, completions);
		completions.start(cq);
		QueuePair qp = provider.createQueuePair(QueuePairAttributes.of(pd, cq).withQueueDepths(2, 2));
		return new Side(qp, completions);
	}

	private static int disniThreads() {
		int n = 0;
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (thread.getName().startsWith("rpcrdma-disni-") && thread.isAlive()) {
				n++;
			}
		}
		return n;
	}

	private record Side(QueuePair qp, CompletionRecorder completions) {
	}

}
