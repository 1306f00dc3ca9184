package io.rpcrdma.spring.boot.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.spring.boot.autoconfigure.fixture.Greeter;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRpcRdma;

class RpcRdmaHealthIndicatorTest {

	/** Closed after each test by JUnit (a test that never started one leaves it {@code null}). */
	@AutoClose
	private LoopbackRpcRdma rpc;

	@Test
	void aListeningServerIsUpWithItsProviderPortConnectionsAndServices() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		Greeter greeter = this.rpc.greeter("greeter");
		assertThat(greeter.greet("health")).isEqualTo("Hello, health");
		// The server counts the call out after handing its reply over, which may be after the
		// client has it: wait for that, not for a fixed time.
		await().atMost(LoopbackRpcRdma.DEADLINE)
			.until(() -> this.rpc.server().orElseThrow().dispatcher().inFlight().inFlight() == 0);

		Health health = new RpcRdmaHealthIndicator(this.rpc).health();

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("provider", "loopback");
		assertThat(details(health, "server")).containsEntry("enabled", true)
			.containsEntry("listening", true)
			.containsEntry("port", this.rpc.serverPort())
			.containsEntry("connections", 1)
			.containsEntry("services", 1)
			.containsEntry("callsInFlight", 0);
		assertThat(details(details(health, "clients"), "greeter")).containsEntry("status", "UP")
			.containsEntry("connections", 1L)
			.containsEntry("consecutiveFailures", 0)
			.doesNotContainKey("lastError");
	}

	@Test
	void anEnabledServerThatDoesNotListenIsDown() throws Exception {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		this.rpc.stopServer();

		Health health = new RpcRdmaHealthIndicator(this.rpc).health();

		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(details(health, "server")).containsEntry("enabled", true)
			.containsEntry("listening", false)
			.doesNotContainKey("port");
	}

	@Test
	void withoutAServerToRunTheApplicationIsUp() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, false);

		Health health = new RpcRdmaHealthIndicator(this.rpc).health();

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(details(health, "server")).containsEntry("enabled", false).containsEntry("listening", false);
		assertThat(health.getDetails()).doesNotContainKey("clients");
	}

	@Test
	void aClientWithoutConnectionIsDownInTheDetailsOnlyWithItsLastError() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, false);
		this.rpc.client("orders", InetSocketAddress.createUnresolved("nobody-listens-here", 0));
		RpcClientPool orders = this.rpc.clientPools().get("orders");
		await().atMost(LoopbackRpcRdma.DEADLINE).until(() -> orders.lastFailure().isPresent());

		Health health = new RpcRdmaHealthIndicator(this.rpc).health();

		assertThat(health.getStatus()).as("a remote server's outage is not this application's").isEqualTo(Status.UP);
		Map<String, Object> details = details(details(health, "clients"), "orders");
		assertThat(details).containsEntry("status", "DOWN").containsEntry("connections", 0L);
		assertThat((Integer) details.get("consecutiveFailures")).isPositive();
		assertThat((String) details.get("lastError")).contains("nobody-listens-here");
	}

	@Test
	void aConfiguredClientBeforeItsFirstCallIsUnknownAndAClientOfSeveralAddressesIsShownPerAddress() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		this.rpc.configureClient("later");
		InetSocketAddress server = this.rpc.server().orElseThrow().localAddress();
		InetSocketAddress nowhere = InetSocketAddress.createUnresolved("nobody-listens-here", 0);
		assertThat(this.rpc.client("spread[" + server + "]", server).greet("one")).isEqualTo("Hello, one");
		this.rpc.client("spread[" + nowhere + "]", nowhere);

		Health health = new RpcRdmaHealthIndicator(this.rpc).health();

		Map<String, Object> clients = details(health, "clients");
		assertThat(clients).containsOnlyKeys("later", "spread");
		assertThat(details(clients, "later")).containsEntry("status", "UNKNOWN").containsEntry("connections", 0L);
		Map<String, Object> spread = details(clients, "spread");
		assertThat(spread).as("one address still serves").containsEntry("status", "UP");
		assertThat(details(spread, "endpoints")).hasSize(2);
	}

	@Test
	void aClientWithSomeServersEjectedIsUpListingEachServersState() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		InetSocketAddress server = this.rpc.server().orElseThrow().localAddress();
		InetSocketAddress nowhere = InetSocketAddress.createUnresolved("nobody-listens-here", 0);
		Greeter greeter = this.rpc.balanced("pair", 1, Duration.ofMillis(300), server, nowhere);
		this.rpc.callUntil(greeter, "pair", "nobody-listens-here:0", InstanceState.EJECTED);
		assertThat(greeter.greet("still")).isEqualTo("Hello, still");

		Health health = new RpcRdmaHealthIndicator(this.rpc).health();

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		Map<String, Object> pair = details(details(health, "clients"), "pair");
		assertThat(pair).as("one server still takes its calls").containsEntry("status", "UP");
		Map<String, Object> instances = details(pair, "instances");
		assertThat(details(instances, server.getHostString() + ":" + server.getPort())).containsEntry("state", "UP")
			.containsEntry("outstanding", 0)
			.containsEntry("consecutiveFailures", 0)
			.doesNotContainKey("lastFailure");
		Map<String, Object> ejected = details(instances, "nobody-listens-here:0");
		assertThat(ejected).containsEntry("state", "EJECTED").containsEntry("address", "nobody-listens-here:0");
		assertThat((Integer) ejected.get("consecutiveFailures")).isPositive();
		assertThat((String) ejected.get("lastFailure")).contains("nobody-listens-here");
	}

	@Test
	void aClientWithEveryServerEjectedIsDownInTheDetailsOnly() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, false);
		Greeter greeter = this.rpc.balanced("gone", 1, Duration.ofMillis(300),
				InetSocketAddress.createUnresolved("nobody-listens-here", 0),
				InetSocketAddress.createUnresolved("nobody-listens-there", 0));
		this.rpc.callUntil(greeter, "gone", "nobody-listens-here:0", InstanceState.EJECTED);
		this.rpc.callUntil(greeter, "gone", "nobody-listens-there:0", InstanceState.EJECTED);

		Health health = new RpcRdmaHealthIndicator(this.rpc).health();

		assertThat(health.getStatus()).as("a remote outage is not this application's").isEqualTo(Status.UP);
		Map<String, Object> gone = details(details(health, "clients"), "gone");
		assertThat(gone).containsEntry("status", "DOWN");
		Map<String, Object> instances = details(gone, "instances");
		assertThat(instances).containsOnlyKeys("nobody-listens-here:0", "nobody-listens-there:0");
		assertThat(details(instances, "nobody-listens-here:0")).containsEntry("state", "EJECTED");
		assertThat(details(instances, "nobody-listens-there:0")).containsEntry("state", "EJECTED");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> details(Health health, String key) {
		return (Map<String, Object>) health.getDetails().get(key);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> details(Map<String, Object> details, String key) {
		return (Map<String, Object>) details.get(key);
	}

}
