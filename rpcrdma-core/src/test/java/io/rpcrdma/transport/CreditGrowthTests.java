package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
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
 * Grants taken from the server's credit budget (RFC 8166 §3.3.1: the responder may change its
 * grant in every reply): full while the budget is not under pressure, fair shares and a floor
 * when it is; and the receives, and so the registered memory, that follow the grant.
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
	void withoutPressureANewConnectionIsGrantedItsFullCreditsAndEightSlowCallsAreInFlightAtOnce() throws Exception {
		// The head-of-line case: the first calls on a connection are slow (held by the server
		// until the test lets them go). A grant that grew only through replies would keep the
		// connection at two calls in flight; the grant comes from the budget instead.
		RpcRdmaServer server = holdingServer(TransportConfig.defaults());
		RpcRdmaClientConnection client = client(server, TransportConfig.defaults());
		RpcRdmaServerConnection connection = onlyConnection(server);
		int full = TransportConfig.defaults().creditsGranted();
		assertThat(connection.postedReceives()).as("receives before the first call: the floor and a spare")
			.isEqualTo(CreditBudget.FLOOR + 1);

		// The client starts with one credit (RFC 8166 §3.3.1) until a reply tells it the grant.
		pipelinedRound(client, 0x100, 1);
		assertThat(client.credits().limit()).as("the first reply's grant").isEqualTo(full);
		assertThat(connection.postedReceives()).as("receives once the first call asked: the full grant and a spare")
			.isEqualTo(full + 1);

		List<CompletableFuture<InboundReply>> calls = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			calls.add(client.call(echo(i + 1)));
		}
		List<Runnable> slow = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			slow.add(nextHeld());
		}
		assertThat(connection.outstanding()).as("slow calls the server holds at once").isEqualTo(8);
		slow.forEach(Runnable::run);
		for (CompletableFuture<InboundReply> call : calls) {
			await(call);
		}
		assertThat(connection.grant()).isEqualTo(full);
		assertThat(connection.creditViolations()).isZero();
	}

	@Test
	void aRawRequesterIsGrantedTheConfiguredCreditsInItsFirstReplyAndMaySendThemAllAtOnce() throws Exception {
		RpcRdmaServer server = holdingServer(config().withCredits(16, 16, 20));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		// Sixteen calls before any reply, beyond the one credit RFC 8166 §3.3.1 lets a requester
		// assume: the receives for the grant are posted as the first call arrives, the others
		// waiting for them (siw holds a Send that finds no receive), so such a requester is
		// still served (CreditHorizon#firstGrant).
		assertThat(rawRound(raw, 1, 16)).as("the first replies' grant").isEqualTo(16);
		assertThat(onlyConnection(server).creditViolations()).isZero();
	}

	@Test
	void underPressureAConnectionAboveItsShareIsTrimmedAndOneStillUsingTheGrantItHadIsServed() throws Exception {
		// A budget of 64: no pressure up to 48 granted. The first two connections take 32 each.
		CreditBudget budget = new CreditBudget(64, 32);
		RpcRdmaServer server = server(config().withCredits(32, 32, 40)
			.withCreditViolation(CreditViolationPolicy.REPLY_ERROR), budget,
				(call, replier) -> this.held.add(() -> RpcWorkload.serve(call, replier)));
		RawPeer busy = rawClient(server, PrivateData.EMPTY);
		eventually("the first connection is accepted", () -> server.connections().size() == 1);
		RpcRdmaServerConnection busyConnection = onlyConnection(server);
		int xid = 1;
		assertThat(rawRound(busy, xid++, 1, 32)).as("a full grant without pressure").isEqualTo(32);

		RawPeer second = rawClient(server, PrivateData.EMPTY);
		RawPeer third = rawClient(server, PrivateData.EMPTY);
		eventually("three connections accepted", () -> server.connections().size() == 3);
		assertThat(budget.granted()).as("connections that have not called are not charged").isEqualTo(32);
		assertThat(rawRound(second, 0x2000, 1, 32)).as("the second connection's first call takes the rest")
			.isEqualTo(32);
		assertThat(rawRound(third, 0x3000, 1, 32)).as("a connection that first calls under pressure gets the floor")
			.isEqualTo(CreditBudget.FLOOR);
		assertThat(budget.granted()).as("32 + 32 + the floor").isEqualTo(64 + CreditBudget.FLOOR);

		// The busy requester still has the grant of 32 its last reply carried: all 32 calls it
		// sends at once are within it (RFC 8166 §3.3.1, Send ordering), though the first of them
		// trims its grant to the fair share, 64 / 3 = 21, which their replies carry.
		int share = 64 / 3;
		assertThat(rawRound(busy, xid, 32, 32)).as("trimmed to the fair share in the next replies")
			.isEqualTo(share);
		xid += 32;
		assertThat(busyConnection.creditViolations()).isZero();
		assertThat(busyConnection.grant()).isEqualTo(share);
		assertThat(busyConnection.postedReceives()).as("the receives follow the trimmed grant")
			.isLessThanOrEqualTo(share + 1);
		assertThat(budget.heldBack()).isPositive();

		// Beyond the trimmed grant: the 22nd call gets the protocol's answer, as configured.
		for (int i = 0; i <= share; i++) {
			busy.send(new RdmaMsg(xid + i, 32, ChunkLists.EMPTY), RpcWorkload.call(xid + i, RpcWorkload.ECHO, new byte[4]));
		}
		TransportHeader error = header(busy.receive());
		assertThat(error).isInstanceOf(RdmaErrChunk.class);
		assertThat(error.xid()).isEqualTo(xid + share);
		assertThat(busyConnection.creditViolations()).isEqualTo(1);
		for (int i = 0; i < share; i++) {
			nextHeld().run();
		}
		for (int i = 0; i < share; i++) {
			assertThat(header(busy.receive())).isInstanceOf(RdmaMsg.class);
		}
		assertThat(busyConnection.isOpen()).isTrue();
	}

	@Test
	void underASmallBudgetAHundredIdleServerConnectionsHoldAtMostSixteenKibibytesOfReceivesEach() throws Exception {
		CreditBudget budget = new CreditBudget(64, 32);
		RpcRdmaServer server = server(TransportConfig.defaults(), budget, RpcWorkload::serve);
		int connections = 100;
		long leasedBefore = receiveBytesLeased(this.serverPool);
		long registeredBefore = receiveBytesRegistered(this.serverPool);
		for (int i = 0; i < connections; i++) {
			RpcRdmaClientConnection client = client(server, TransportConfig.defaults());
			await(client.call(echo(i + 1)));
		}
		eventually("every connection accepted", () -> server.connections().size() == connections);
		long leased = (receiveBytesLeased(this.serverPool) - leasedBefore) / connections;
		long registered = (receiveBytesRegistered(this.serverPool) - registeredBefore) / connections;
		assertThat(leased).as("receive memory an idle server connection holds, on average")
			.isLessThanOrEqualTo(16 << 10);
		assertThat(registered).as("registered receive memory per idle server connection, on average")
			.isLessThanOrEqualTo(16 << 10);
		for (RpcRdmaServerConnection connection : server.connections()) {
			assertThat(connection.grant()).isBetween(CreditBudget.FLOOR, 32);
			assertThat(connection.postedReceives()).isGreaterThanOrEqualTo(connection.grant());
		}

		// A call on a new connection still succeeds, with at least the floor.
		RpcRdmaClientConnection latecomer = client(server, TransportConfig.defaults());
		assertThat(await(latecomer.call(echo(0x4000))).xid()).isEqualTo(0x4000);
		assertThat(latecomer.credits().limit()).isGreaterThanOrEqualTo(CreditBudget.FLOOR);
	}

	@Test
	void backwardDirectionReceivesArePostedOnlyOnceTheServerCallsBack() throws Exception {
		int backwardCredits = 4;
		RpcRdmaServer server = closeAfterTest(RpcRdmaServer.listen(this.serverProvider, this.serverPool,
				listenAddress(), config(), CreditBudget.unlimited(), this.executor, RpcWorkload::serve,
				backwardCredits));
		RawPeer raw = rawClient(server, PrivateData.EMPTY);
		raw.send(new RdmaMsg(1, 8, ChunkLists.EMPTY), RpcWorkload.call(1, RpcWorkload.ECHO, new byte[4]));
		assertThat(header(raw.receive()).xid()).isEqualTo(1);
		RpcRdmaServerConnection connection = onlyConnection(server);
		int grant = config().creditsGranted();
		assertThat(connection.postedReceives()).as("a connection that was never called back: no backward receives")
			.isEqualTo(grant + 1);

		CompletableFuture<InboundReply> call = connection.backwardCalls()
			.orElseThrow()
			.call(OutboundCall.inline(RpcWorkload.call(0x0b00, 1, new byte[4])));
		ByteBuffer backwardCall = raw.receive();
		assertThat(header(backwardCall).xid()).isEqualTo(0x0b00);
		// RFC 8167 §4.3: posted before the call went, so the reply finds one.
		assertThat(connection.postedReceives()).isEqualTo(grant + 1 + backwardCredits);
		raw.send(new RdmaMsg(0x0b00, 1, ChunkLists.EMPTY),
				RpcWorkload.call(0x0b00, 1, new byte[0]).putInt(4, BackwardDirection.REPLY));
		assertThat(await(call).xid()).isEqualTo(0x0b00);
		eventually("the backward receives are kept posted",
				() -> connection.postedReceives() == grant + 1 + backwardCredits);
		assertThat(connection.isOpen()).isTrue();
	}

	/** Sends {@code count} calls, answers them once all are held, and returns the last reply's grant. */
	private int rawRound(RawPeer raw, int firstXid, int count) throws Exception {
		return rawRound(raw, firstXid, count, 16);
	}

	/**
	 * Sends {@code count} calls asking for {@code requested} credits, answers them once all are
	 * held, and returns the last reply's grant.
	 */
	private int rawRound(RawPeer raw, int firstXid, int count, int requested) throws Exception {
		for (int i = 0; i < count; i++) {
			raw.send(new RdmaMsg(firstXid + i, requested, ChunkLists.EMPTY),
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

	private static long receiveBytesRegistered(RegisteredMemoryPool pool) {
		long registered = 0;
		for (SizeClassStats stats : pool.stats().sizeClasses()) {
			if (stats.role() == BufferRole.RECEIVE) {
				registered += stats.registeredBytes();
			}
		}
		return registered;
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
