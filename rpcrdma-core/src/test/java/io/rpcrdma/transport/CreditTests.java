package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.verbs.PrivateData;

/**
 * Credits over a connection (RFC 5666 §3.3, RFC 8166 §3.3.1).
 */
abstract class CreditTests extends RpcRdmaTransportKit {

	/** A server that holds every call until the test lets it reply. */
	private final LinkedBlockingQueue<Runnable> held = new LinkedBlockingQueue<>();

	private final AtomicInteger handled = new AtomicInteger();

	private RpcRdmaServer holdingServer(TransportConfig config) {
		return server(config, (call, replier) -> {
			this.handled.incrementAndGet();
			this.held.add(() -> RpcWorkload.serve(call, replier));
		});
	}

	private Runnable nextHeld() throws InterruptedException {
		Runnable next = this.held.poll(deadline().toMillis(), TimeUnit.MILLISECONDS);
		assertThat(next).as("a call reached the server in time").isNotNull();
		return next;
	}

	@Test
	void theClientNeverHasMoreCallsOutstandingThanTheServerGrants() throws Exception {
		RpcRdmaServer server = holdingServer(config().withCredits(8, 3, 12)
			.withCreditViolation(CreditViolationPolicy.REPLY_ERROR));
		RpcRdmaClientConnection client = client(server, config());
		List<CompletableFuture<InboundReply>> calls = new ArrayList<>();
		for (int i = 0; i < 31; i++) {
			calls.add(client.call(RpcWorkload.echo(500 + i, RpcWorkload.pattern(10, i), false, 0, 0)));
		}
		// Before any reply the client has one credit (RFC 8166 §3.3.1).
		Runnable first = nextHeld();
		assertThat(client.credits().outstanding()).isEqualTo(1);
		assertThat(this.held).isEmpty();
		first.run();
		await(calls.get(0));
		assertThat(client.credits().limit()).isEqualTo(3);
		for (int round = 0; round < 10; round++) {
			List<Runnable> batch = List.of(nextHeld(), nextHeld(), nextHeld());
			RpcRdmaServerConnection connection = onlyConnection(server);
			assertThat(connection.outstanding()).isEqualTo(3);
			assertThat(client.credits().outstanding()).isEqualTo(3);
			assertThat(this.held).isEmpty();
			batch.forEach(Runnable::run);
		}
		for (CompletableFuture<InboundReply> call : calls) {
			await(call);
		}
		assertThat(onlyConnection(server).creditViolations()).isZero();
		assertThat(this.handled.get()).isEqualTo(31);
	}

	@Test
	void aCallWaitingForACreditFailsAtItsDeadlineWithoutBeingSent() throws Exception {
		RpcRdmaServer server = holdingServer(config());
		RpcRdmaClientConnection client = client(server,
				config().withTimeouts(Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofSeconds(10)));
		CompletableFuture<InboundReply> first = client.call(RpcWorkload.echo(1, new byte[4], false, 0, 0));
		CompletableFuture<InboundReply> second = client.call(RpcWorkload.echo(2, new byte[4], false, 0, 0));

		assertFails(second, CreditWaitTimeoutException.class);
		nextHeld().run();
		await(first);
		assertThat(this.handled.get()).isEqualTo(1);
		assertThat(client.pendingCalls()).isZero();
	}

	@Test
	void theServerNeverGrantsZeroEvenWhenAskedForZeroOrOutOfBudget() throws Exception {
		RpcRdmaServer server = server(config(), new CreditBudget(2, 2), RpcWorkload::serve);
		RpcRdmaClientConnection greedy = client(server, config());
		await(greedy.call(RpcWorkload.echo(1, new byte[4], false, 0, 0)));
		assertThat(greedy.credits().limit()).isEqualTo(2);

		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsg(77, 0, ChunkLists.EMPTY), RpcWorkload.call(77, RpcWorkload.ECHO, new byte[4]));
		TransportHeader reply = header(raw.receive());
		assertThat(reply.xid()).isEqualTo(77);
		assertThat(reply.credits()).isEqualTo(1);
	}

	@Test
	void aClientThatIgnoresItsGrantIsDisconnected() throws Exception {
		RpcRdmaServer server = holdingServer(config().withCredits(8, 2, 12));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		for (int xid = 1; xid <= 3; xid++) {
			raw.send(new RdmaMsg(xid, 2, ChunkLists.EMPTY), RpcWorkload.call(xid, RpcWorkload.ECHO, new byte[4]));
		}
		raw.awaitDisconnected();
		assertThat(this.handled.get()).isLessThanOrEqualTo(2);
	}

	@Test
	void aClientThatIgnoresItsGrantGetsAnErrorWhenSoConfigured() throws Exception {
		RpcRdmaServer server = holdingServer(
				config().withCredits(8, 2, 12).withCreditViolation(CreditViolationPolicy.REPLY_ERROR));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		for (int xid = 1; xid <= 3; xid++) {
			raw.send(new RdmaMsg(xid, 2, ChunkLists.EMPTY), RpcWorkload.call(xid, RpcWorkload.ECHO, new byte[4]));
		}
		TransportHeader error = header(raw.receive());
		assertThat(error).isEqualTo(new RdmaErrChunk(3, 2));
		assertThat(onlyConnection(server).creditViolations()).isEqualTo(1);
		nextHeld().run();
		nextHeld().run();
		// The handler runs on a pool, so the two calls may be answered in either order.
		assertThat(List.of(header(raw.receive()).xid(), header(raw.receive()).xid())).containsExactlyInAnyOrder(1, 2);
		assertThat(this.handled.get()).isEqualTo(2);
		// Within the grant again, a call is served.
		raw.send(new RdmaMsg(4, 2, ChunkLists.EMPTY), RpcWorkload.call(4, RpcWorkload.ECHO, new byte[4]));
		nextHeld().run();
		ByteBuffer reply = raw.receive();
		assertThat(header(reply)).isInstanceOf(RdmaMsg.class);
		assertThat(header(reply).xid()).isEqualTo(4);
	}

	@Test
	void theServerPostsAtLeastAsManyReceivesAsItGrants() throws Exception {
		RpcRdmaServer server = echoServer(config().withCredits(8, 6, 9));
		RpcRdmaClientConnection client = client(server, config());
		await(client.call(RpcWorkload.echo(1, new byte[4], false, 0, 0)));
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.grant()).isEqualTo(6);
		assertThat(connection.postedReceives()).isGreaterThanOrEqualTo(connection.grant());
		assertThat(client.postedReceives()).isGreaterThanOrEqualTo(client.credits().limit());
	}

}
