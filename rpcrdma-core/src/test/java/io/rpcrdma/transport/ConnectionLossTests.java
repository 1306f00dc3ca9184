package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Connection loss fails every pending call with {@link TransportClosedException}, whether it
 * was sent or still waiting for a credit, and leaves no buffer leased.
 */
abstract class ConnectionLossTests extends RpcRdmaTransportKit {

	private final CountDownLatch arrived = new CountDownLatch(1);

	private RpcRdmaServer silentServer() {
		return server(config(), (call, replier) -> this.arrived.countDown());
	}

	private List<CompletableFuture<InboundReply>> callsInFlight(RpcRdmaClientConnection client) throws Exception {
		List<CompletableFuture<InboundReply>> calls = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			calls.add(client.call(RpcWorkload.echo(i + 1, new byte[16], false, 1024, 0)));
		}
		assertThat(this.arrived.await(deadline().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		return calls;
	}

	@Test
	void losingTheConnectionMidCallFailsEveryPendingCall() throws Exception {
		RpcRdmaServer server = silentServer();
		RpcRdmaClientConnection client = client(server, config());
		List<CompletableFuture<InboundReply>> calls = callsInFlight(client);

		onlyConnection(server).close();

		for (CompletableFuture<InboundReply> call : calls) {
			assertFails(call, TransportClosedException.class);
		}
		await(client.closeFuture());
		assertThat(client.isOpen()).isFalse();
		assertFails(client.call(RpcWorkload.echo(99, new byte[4], false, 0, 0)), TransportClosedException.class);
		eventually("the client returned every buffer", () -> this.clientPool.stats().leasedBytes() == 0);
		eventually("the server returned every buffer", () -> this.serverPool.stats().leasedBytes() == 0);
	}

	@Test
	void closingTheClientFailsPendingCallsAndReleasesItsMemory() throws Exception {
		RpcRdmaServer server = silentServer();
		RpcRdmaClientConnection client = client(server, config());
		List<CompletableFuture<InboundReply>> calls = callsInFlight(client);

		client.close();

		for (CompletableFuture<InboundReply> call : calls) {
			assertFails(call, TransportClosedException.class);
		}
		assertThat(client.pendingCalls()).isZero();
		eventually("the client returned every buffer", () -> this.clientPool.stats().leasedBytes() == 0);
		eventually("the server saw the disconnect", () -> server.connections().isEmpty());
		eventually("the server returned every buffer", () -> this.serverPool.stats().leasedBytes() == 0);
	}

	@Test
	void connectingToNobodyFailsWithConnectionLost() throws Exception {
		CompletableFuture<RpcRdmaClientConnection> connect = RpcRdmaClientConnection.connect(this.clientProvider,
				this.clientPool, listenAddressWithoutServer(), config(), this.versionCache);
		assertFails(connect, TransportClosedException.class);
		eventually("the client returned every buffer", () -> this.clientPool.stats().leasedBytes() == 0);
	}

	private java.net.InetSocketAddress listenAddressWithoutServer() {
		RpcRdmaServer server = echoServer(config());
		java.net.InetSocketAddress address = server.localAddress();
		server.close();
		return address;
	}

}
