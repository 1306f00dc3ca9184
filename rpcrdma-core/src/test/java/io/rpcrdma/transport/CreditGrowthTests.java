package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.memory.SizeClassStats;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.verbs.PrivateData;

/**
 * Grants that follow the load (RFC 8166 §3.3.1: the responder may change its grant in every
 * reply), and the receives, and so the registered memory, that follow the grant.
 */
abstract class CreditGrowthTests extends RpcRdmaTransportKit {

	/** A server that holds every call until the test lets it reply. */
	private final LinkedBlockingQueue<Runnable> held = new LinkedBlockingQueue<>();

	private RpcRdmaServer holdingServer(TransportConfig config) {
		return server(config, (call, replier) -> this.held.add(() -> RpcWorkload.serve(call, replier)));
	}

	private Runnable nextHeld() throws InterruptedException {
		Runnable next = this.held.poll(deadline().toMillis(), TimeUnit.MILLISECONDS);
		assertThat(next).as("a call reached the server in time").isNotNull();
		return next;
	}

	private static OutboundCall echo(int xid) {
		return RpcWorkload.echo(xid, RpcWorkload.pattern(16, xid), false, 0, 0);
	}

	/** Sends {@code count} calls at once and answers them once all are held: a pipelined round. */
	private void pipelinedRound(RpcRdmaClientConnection client, int firstXid, int count) throws Exception {
		List<CompletableFuture<InboundReply>> calls = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			calls.add(client.call(echo(firstXid + i)));
		}
		List<Runnable> round = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			round.add(nextHeld());
		}
		round.forEach(Runnable::run);
		for (CompletableFuture<InboundReply> call : calls) {
			await(call);
		}
	}

	@Test
	void theGrantStartsSmallAndDoublesWhileTheRequesterKeepsEveryCreditInUse() throws Exception {
		RpcRdmaServer server = holdingServer(config().withCredits(16, 16, 20));
		RpcRdmaClientConnection client = client(server, config().withCredits(16, 16, 20));
		RpcRdmaServerConnection connection = onlyConnection(server);
		int spare = 1;
		assertThat(connection.postedReceives()).as("receives before the first call").isEqualTo(2 + spare);

		pipelinedRound(client, 1, 1);
		assertThat(client.credits().limit()).as("the first reply's grant").isEqualTo(2);
		assertThat(connection.postedReceives()).isEqualTo(2 + spare);

		int xid = 10;
		for (int grant : new int[] { 2, 4, 8 }) {
			// Every credit in use: the replies of this round carry twice the grant, for which
			// the receives are posted before any reply can carry it.
			pipelinedRound(client, xid, grant);
			xid += grant;
			assertThat(client.credits().limit()).isEqualTo(2 * grant);
			assertThat(connection.grant()).isEqualTo(2 * grant);
			assertThat(connection.postedReceives()).isGreaterThanOrEqualTo(2 * grant + spare);
			assertThat(client.postedReceives()).isGreaterThanOrEqualTo(2 * grant);
		}
		pipelinedRound(client, xid, 16);
		assertThat(connection.grant()).as("the configured maximum").isEqualTo(16);
		assertThat(connection.postedReceives()).isLessThanOrEqualTo(16 + spare);
		assertThat(connection.creditViolations()).isZero();
	}

	@Test
	void anIdleGrantShrinksBackAndTheReceivesGoBackToThePool() throws Exception {
		TransportConfig config = config().withCredits(16, 16, 20)
			.withCreditGrowth(new CreditGrowth(2, Duration.ofMillis(50)));
		RpcRdmaServer server = holdingServer(config);
		RpcRdmaClientConnection client = client(server, config);
		RpcRdmaServerConnection connection = onlyConnection(server);
		pipelinedRound(client, 1, 1);
		int xid = 10;
		for (int grant : new int[] { 2, 4, 8 }) {
			pipelinedRound(client, xid, grant);
			xid += grant;
		}
		assertThat(connection.grant()).isEqualTo(16);
		long busy = receiveBytesLeased(this.serverPool);

		// One call at a time: at most half the grant in use, so it halves every 50 ms down to
		// the initial two, and the receives follow as the calls sent under the larger grant
		// (none here) are accounted for.
		long deadline = System.nanoTime() + deadline().toNanos();
		while ((connection.grant() > 2 || connection.postedReceives() > 3) && System.nanoTime() < deadline) {
			pipelinedRound(client, xid++, 1);
		}
		assertThat(connection.grant()).isEqualTo(2);
		assertThat(client.credits().limit()).isEqualTo(2);
		assertThat(connection.postedReceives()).isEqualTo(3);
		assertThat(receiveBytesLeased(this.serverPool)).as("receive memory leased by the server")
			.isEqualTo(3L * TransportConfig.DEFAULT_INLINE_THRESHOLD_V2)
			.isLessThan(busy);
		eventually("the client's receives follow its grant", () -> client.postedReceives() == 3);

		// Busy again, it grows again.
		pipelinedRound(client, xid, 2);
		assertThat(connection.grant()).isEqualTo(4);
	}

	@Test
	void aRequesterExceedingALoweredGrantGetsAnError() throws Exception {
		RpcRdmaServer server = holdingServer(config().withCredits(16, 16, 20)
			.withCreditViolation(CreditViolationPolicy.REPLY_ERROR)
			.withCreditGrowth(new CreditGrowth(2, Duration.ofMillis(50))));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		int xid = 1;
		assertThat(rawRound(raw, xid++, 1)).isEqualTo(2);
		assertThat(rawRound(raw, xid, 2)).as("two in use: doubled").isEqualTo(4);
		xid += 2;
		assertThat(rawRound(raw, xid, 4)).isEqualTo(8);
		xid += 4;
		// One at a time until a reply lowers the grant. A requester that had not yet seen that
		// reply could still send what the grant of 8 allowed (Send ordering, RFC 8166 §3.3.1),
		// so the lower grant binds once as many calls as that have gone one at a time.
		long deadline = System.nanoTime() + deadline().toNanos();
		int grant = 8;
		while (grant > 2 && System.nanoTime() < deadline) {
			grant = rawRound(raw, xid++, 1);
		}
		assertThat(grant).isEqualTo(2);
		for (int i = 0; i < 8; i++) {
			assertThat(rawRound(raw, xid++, 1)).isEqualTo(2);
		}

		// Three calls under a grant of two: the third is refused.
		for (int i = 0; i < 3; i++) {
			raw.send(new RdmaMsg(xid + i, 16, ChunkLists.EMPTY), RpcWorkload.call(xid + i, RpcWorkload.ECHO, new byte[4]));
		}
		TransportHeader error = header(raw.receive());
		assertThat(error).isInstanceOf(RdmaErrChunk.class);
		assertThat(error.xid()).isEqualTo(xid + 2);
		assertThat(onlyConnection(server).creditViolations()).isEqualTo(1);
		nextHeld().run();
		nextHeld().run();
		assertThat(List.of(header(raw.receive()).xid(), header(raw.receive()).xid()))
			.containsExactlyInAnyOrder(xid, xid + 1);
	}

	@Test
	void aRequesterStillUsingTheGrantItHadIsNotRefusedWhenTheGrantShrinks() throws Exception {
		// The grant shrinks while calls sent under the larger one are on their way: they are
		// within the grant the requester had (Send ordering, RFC 8166 §3.3.1), so all are served.
		RpcRdmaServer server = holdingServer(config().withCredits(16, 16, 20)
			.withCreditGrowth(new CreditGrowth(2, Duration.ofMillis(50))));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		int xid = 1;
		assertThat(rawRound(raw, xid++, 1)).isEqualTo(2);
		assertThat(rawRound(raw, xid, 2)).isEqualTo(4);
		xid += 2;
		RpcRdmaServerConnection connection = onlyConnection(server);
		// Idle for longer than the shrink time: the next call's reply lowers the grant.
		long idleUntil = System.nanoTime() + Duration.ofMillis(120).toNanos();
		while (System.nanoTime() < idleUntil) {
			Thread.onSpinWait();
		}
		for (int i = 0; i < 4; i++) {
			raw.send(new RdmaMsg(xid + i, 16, ChunkLists.EMPTY), RpcWorkload.call(xid + i, RpcWorkload.ECHO, new byte[4]));
		}
		for (int i = 0; i < 4; i++) {
			nextHeld().run();
		}
		List<Integer> xids = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			TransportHeader reply = header(raw.receive());
			assertThat(reply).isInstanceOf(RdmaMsg.class);
			xids.add(reply.xid());
		}
		assertThat(xids).containsExactlyInAnyOrder(xid, xid + 1, xid + 2, xid + 3);
		assertThat(connection.creditViolations()).isZero();
		assertThat(connection.isOpen()).isTrue();
	}

	@Test
	void anIdleServerConnectionHoldsAtMostSixteenKibibytesOfRegisteredReceiveMemory() throws Exception {
		RpcRdmaServer server = echoServer(TransportConfig.defaults());
		int connections = 12;
		long before = receiveBytesLeased(this.serverPool);
		List<RpcRdmaClientConnection> clients = new ArrayList<>();
		for (int i = 0; i < connections; i++) {
			RpcRdmaClientConnection client = client(server, TransportConfig.defaults());
			await(client.call(echo(i + 1)));
			clients.add(client);
		}
		eventually("every connection accepted", () -> server.connections().size() == connections);
		long perConnection = (receiveBytesLeased(this.serverPool) - before) / connections;
		assertThat(perConnection).as("receive memory a server connection holds after a call, idle")
			.isLessThanOrEqualTo(16 << 10);
		for (RpcRdmaServerConnection connection : server.connections()) {
			assertThat(connection.postedReceives()).isGreaterThanOrEqualTo(connection.grant());
		}
		for (RpcRdmaClientConnection client : clients) {
			assertThat(client.postedReceives()).isLessThanOrEqualTo(4);
		}
	}

	/** Sends {@code count} calls, answers them once all are held, and returns the last reply's grant. */
	private int rawRound(RawPeer raw, int firstXid, int count) throws Exception {
		for (int i = 0; i < count; i++) {
			raw.send(new RdmaMsg(firstXid + i, 16, ChunkLists.EMPTY),
					RpcWorkload.call(firstXid + i, RpcWorkload.ECHO, new byte[4]));
		}
		List<Runnable> round = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			round.add(nextHeld());
		}
		round.forEach(Runnable::run);
		int grant = 0;
		for (int i = 0; i < count; i++) {
			ByteBuffer reply = raw.receive();
			assertThat(header(reply)).isInstanceOf(RdmaMsg.class);
			grant = header(reply).credits();
		}
		return grant;
	}

	private static long receiveBytesLeased(RegisteredMemoryPool pool) {
		long leased = 0;
		for (SizeClassStats stats : pool.stats().sizeClasses()) {
			if (stats.role() == BufferRole.RECEIVE) {
				leased += stats.leasedBytes();
			}
		}
		return leased;
	}

}
