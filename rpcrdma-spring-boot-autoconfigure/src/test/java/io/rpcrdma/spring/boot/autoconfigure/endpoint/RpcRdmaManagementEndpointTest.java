package io.rpcrdma.spring.boot.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.net.InetSocketAddress;
import java.time.Duration;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.spring.boot.autoconfigure.endpoint.RpcRdmaManagementEndpoint.BalancingDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.endpoint.RpcRdmaManagementEndpoint.ClientConnectionDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.endpoint.RpcRdmaManagementEndpoint.ClientDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.endpoint.RpcRdmaManagementEndpoint.ConnectionCapsDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.endpoint.RpcRdmaManagementEndpoint.ProgramDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.endpoint.RpcRdmaManagementEndpoint.RpcRdmaDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.endpoint.RpcRdmaManagementEndpoint.ServerConnectionDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.fixture.Greeter;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRpcRdma;
import io.rpcrdma.transport.InlineThresholds;

class RpcRdmaManagementEndpointTest {

	/** Closed after each test by JUnit (a test that never started one leaves it {@code null}). */
	@AutoClose
	private LoopbackRpcRdma rpc;

	@Test
	void listsTheExportedProgramWithItsVersionAndProcedures() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();

		RpcRdmaDescriptor described = new RpcRdmaManagementEndpoint(this.rpc).rpcrdma();

		assertThat(described.provider()).isEqualTo("loopback");
		assertThat(described.server().enabled()).isTrue();
		assertThat(described.server().listening()).isTrue();
		assertThat(described.server().port()).isEqualTo(this.rpc.serverPort());
		ProgramDescriptor greeter = described.server().programs().get(0);
		assertThat(greeter.name()).isEqualTo("Greeter");
		assertThat(greeter.program()).isEqualTo("0x20000777");
		assertThat(greeter.programNumber()).isEqualTo(0x20000777L);
		assertThat(greeter.version()).isEqualTo(1);
		assertThat(greeter.serviceInterface()).isEqualTo(Greeter.class.getName());
		assertThat(greeter.implementation()).isEqualTo(Greeter.Friendly.class.getName());
		assertThat(greeter.procedures()).extracting("number", "name", "idempotent", "bulk")
			.containsExactly(tuple(1L, "greet", true, false),
					tuple(2L, "fail", false, false));
		assertThat(described.server().connections()).isEmpty();
		assertThat(described.clients()).isEmpty();
		assertThat(described.balancing()).isEmpty();
	}

	@Test
	void describesEachConnectionsVersionInlineThresholdsAndCredits() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		assertThat(this.rpc.greeter("greeter").greet("endpoint")).isEqualTo("Hello, endpoint");

		RpcRdmaDescriptor described = new RpcRdmaManagementEndpoint(this.rpc).rpcrdma();

		assertThat(described.server().credits().granted()).isEqualTo(32);
		assertThat(described.server().connectionCaps()).as("the defaults, one connection held, nothing refused")
			.isEqualTo(new ConnectionCapsDescriptor(256, 16_384, 1, 0, 0));
		ServerConnectionDescriptor accepted = described.server().connections().get(0);
		assertThat(accepted.version()).as("the version the requester prefers").isEqualTo(2);
		assertThat(accepted.creditsGranted()).isEqualTo(32);
		assertThat(accepted.creditsInUse()).isZero();
		assertThat(accepted.inlineThresholds()).extracting(InlineThresholds::version).containsExactly(1, 2);
		ClientDescriptor client = described.clients().get("greeter");
		assertThat(client.endpoint()).contains("observability-");
		assertThat(client.consecutiveFailures()).isZero();
		assertThat(client.lastError()).isNull();
		ClientConnectionDescriptor connection = client.connections().get(0);
		assertThat(connection.open()).isTrue();
		assertThat(connection.version()).isEqualTo(2);
		assertThat(connection.versionConfirmed()).isTrue();
		assertThat(connection.creditsGranted()).isEqualTo(32);
		assertThat(connection.creditsInUse()).isZero();
		assertThat(connection.creditsWaiting()).isZero();
		assertThat(connection.pendingCalls()).isZero();
		InlineThresholds clientV2 = connection.inlineThresholds().get(1);
		InlineThresholds serverV2 = accepted.inlineThresholds().get(1);
		assertThat(clientV2.send()).as("RFC 8797: what one side sends is what the other receives")
			.isEqualTo(serverV2.receive());
		assertThat(clientV2.receive()).isEqualTo(serverV2.send());
	}

	@Test
	void aStoppedServerIsDescribedAsNotListeningWithItsPrograms() throws Exception {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		this.rpc.stopServer();

		RpcRdmaDescriptor described = new RpcRdmaManagementEndpoint(this.rpc).rpcrdma();

		assertThat(described.server().listening()).isFalse();
		assertThat(described.server().port()).isEqualTo(-1);
		assertThat(described.server().credits()).isNull();
		assertThat(described.server().connectionCaps()).isNull();
		assertThat(described.server().programs()).extracting(ProgramDescriptor::name).containsExactly("Greeter");
	}

	@Test
	void describesTheServersEachBalancedClientSeesWithTheirState() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		InetSocketAddress server = this.rpc.server().orElseThrow().localAddress();
		InetSocketAddress nowhere = InetSocketAddress.createUnresolved("nobody-listens-here", 0);
		Greeter greeter = this.rpc.balanced("pair", 1, Duration.ofMillis(300), server, nowhere);
		this.rpc.callUntil(greeter, "pair", "nobody-listens-here:0", InstanceState.EJECTED);
		assertThat(greeter.greet("still")).isEqualTo("Hello, still");

		RpcRdmaDescriptor described = new RpcRdmaManagementEndpoint(this.rpc).rpcrdma();

		BalancingDescriptor pair = described.balancing().get("pair");
		assertThat(pair.failovers()).as("the fixture's client retries nothing").isZero();
		String serverId = server.getHostString() + ":" + server.getPort();
		assertThat(pair.instances()).extracting("id", "address", "state", "outstanding")
			.containsExactly(tuple(serverId, serverId, InstanceState.UP, 0),
					tuple("nobody-listens-here:0", "nobody-listens-here:0", InstanceState.EJECTED, 0));
		assertThat(pair.instances().get(0).consecutiveFailures()).isZero();
		assertThat(pair.instances().get(0).lastFailure()).isNull();
		assertThat(pair.instances().get(1).consecutiveFailures()).isPositive();
		assertThat(pair.instances().get(1).lastFailure()).contains("nobody-listens-here");
		assertThat(pair.instances().get(1).lastFailureTime()).isNotNull();
		assertThat(described.clients()).containsKey("pair[" + serverId + "]");
	}

}
