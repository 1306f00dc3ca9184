package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.SoftwareProvider;

/**
 * What one peer's connections can take from another's, against raw peers over real siw: the
 * server's connection caps ({@link ConnectionLimits}) and its credit budget. The server listens
 * on the wildcard address, and two peers on this machine are 127.0.0.1 and ::1, two addresses,
 * so two peers.
 */
class PeerConnectionsTest extends RpcRdmaTransportKit {

	@Override
	protected RdmaProvider openProvider() {
		return SoftwareProvider.SIW.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(0);
	}

	private RpcRdmaServer server(ConnectionLimits limits) {
		return server(limits, CreditBudget.unlimited(), config());
	}

	private RpcRdmaServer server(ConnectionLimits limits, CreditBudget budget, TransportConfig config) {
		return closeAfterTest(RpcRdmaServer.listen(this.serverProvider, this.serverPool, listenAddress(), config,
				budget, this.executor, RpcWorkload::serve, 0, limits));
	}

	private RawPeer connect(RpcRdmaServer server, String peer) throws Exception {
		InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(peer), server.localAddress().getPort());
		RawPeer raw = RawPeer.connect(this.clientProvider, address, PrivateData.EMPTY, deadline());
		closeAfterTest(raw::close);
		return raw;
	}

	private void refused(RpcRdmaServer server, String peer) {
		InetSocketAddress address;
		try {
			address = new InetSocketAddress(InetAddress.getByName(peer), server.localAddress().getPort());
		}
		catch (java.net.UnknownHostException ex) {
			throw new AssertionError(ex);
		}
		assertThatThrownBy(() -> RawPeer.connect(this.clientProvider, address, PrivateData.EMPTY, deadline()))
			.as("a connection from %s is refused", peer)
			.isInstanceOf(ExecutionException.class)
			.cause()
			.isInstanceOf(ConnectionRejectedException.class);
	}

	/** A call on the connection is answered: the server serves it. */
	private static void served(RawPeer raw, int xid) {
		raw.send(new RdmaMsg(xid, 8, ChunkLists.EMPTY), RpcWorkload.call(xid, RpcWorkload.ECHO, new byte[4]));
		assertThat(header(raw.receive()).xid()).isEqualTo(xid);
	}

	@Test
	void aPeerAtItsCapIsRefusedWhileAnotherPeerStillConnects() throws Exception {
		RpcRdmaServer server = server(new ConnectionLimits(3, 100));
		List<RawPeer> first = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			first.add(connect(server, "127.0.0.1"));
		}
		eventually("three connections accepted", () -> server.connections().size() == 3);

		refused(server, "127.0.0.1");
		assertThat(server.refusedAtConnectionCaps()).isEqualTo(1);
		assertThat(server.refusedConnections()).isEqualTo(1);
		assertThat(server.heldConnections()).as("the refused request holds no slot").isEqualTo(3);

		RawPeer other = connect(server, "::1");
		served(other, 1);
		for (int i = 0; i < first.size(); i++) {
			served(first.get(i), 10 + i);
		}
		assertThat(server.connections()).hasSize(4);
	}

	@Test
	void theTotalCapRefusesEveryPeer() throws Exception {
		RpcRdmaServer server = server(new ConnectionLimits(2, 3));
		connect(server, "127.0.0.1");
		connect(server, "127.0.0.1");
		RawPeer other = connect(server, "::1");
		eventually("three connections accepted", () -> server.connections().size() == 3);

		refused(server, "::1");
		refused(server, "127.0.0.1");
		assertThat(server.refusedAtConnectionCaps()).isEqualTo(2);
		served(other, 1);
	}

	@Test
	void aClosedConnectionGivesItsSlotBack() throws Exception {
		RpcRdmaServer server = server(new ConnectionLimits(2, 100));
		RawPeer closing = connect(server, "127.0.0.1");
		connect(server, "127.0.0.1");
		eventually("two connections accepted", () -> server.connections().size() == 2);
		refused(server, "127.0.0.1");

		closing.close();
		eventually("the closed connection gives its slot back", () -> server.heldConnections() == 1);
		RawPeer again = connect(server, "127.0.0.1");
		served(again, 1);
		assertThat(server.refusedAtConnectionCaps()).isEqualTo(1);
	}

	@Test
	void idleConnectionsOfOnePeerLeaveAnotherPeerItsFullGrantInItsFirstReply() throws Exception {
		// A budget of 64 with 32 per connection: charged at accept, two idle connections would
		// take all of it and sixteen would put every newcomer at the floor.
		CreditBudget budget = new CreditBudget(64, 32);
		RpcRdmaServer server = server(ConnectionLimits.DEFAULTS, budget, config().withCredits(32, 32, 40));
		for (int i = 0; i < 16; i++) {
			connect(server, "127.0.0.1");
		}
		eventually("sixteen idle connections accepted", () -> server.connections().size() == 16);
		assertThat(budget.granted()).as("credits idle connections are charged").isZero();
		assertThat(budget.connections()).as("idle connections sharing the budget").isZero();

		RawPeer caller = connect(server, "::1");
		caller.send(new RdmaMsg(1, 32, ChunkLists.EMPTY), RpcWorkload.call(1, RpcWorkload.ECHO, new byte[4]));
		assertThat(header(caller.receive()).credits()).as("the caller's first reply's grant").isEqualTo(32);
		assertThat(budget.granted()).isEqualTo(32);
		assertThat(budget.heldBack()).isZero();
	}

	@Test
	void theCapsAreValidated() {
		assertThatThrownBy(() -> new ConnectionLimits(0, 10)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("must be positive");
		assertThatThrownBy(() -> new ConnectionLimits(11, 10)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("cannot exceed the total");
	}

}
