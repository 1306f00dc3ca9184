package io.rpcrdma.spring.boot.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.spring.boot.autoconfigure.discovery.RpcRdmaDiscoveryMetadata;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.client.discovery.event.HeartbeatEvent;
import org.springframework.cloud.client.discovery.simple.InstanceProperties;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/**
 * A {@code discovery:///greeter} client over siw on 127.0.0.1 finds its server through Spring
 * Cloud's SimpleDiscoveryClient (the RPC port from the rpcrdma-port entry, else the instance's
 * port), and follows a changed instance list on a HeartbeatEvent: new calls go to the new
 * server while the call in flight on the old one finishes there.
 */
class SimpleDiscoveryClientEndToEndTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	/** Only the SimpleDiscoveryClient: the ZooKeeper discovery stays off (test application.properties). */
	static final String[] COMMON = { "rpcrdma.provider=siw", "rpcrdma.client.default.call-timeout=30s" };

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		for (ConfigurableApplicationContext context : this.contexts) {
			context.getBeanProvider(GreeterService.class).ifAvailable((service) -> service.release.countDown());
		}
		for (int i = this.contexts.size() - 1; i >= 0; i--) {
			this.contexts.get(i).close();
		}
	}

	@Test
	void heartbeatMovesNewCallsToTheListedInstanceWhileTheCallInFlightFinishes() throws Exception {
		ConfigurableApplicationContext serverA = server();
		ConfigurableApplicationContext serverB = server();
		int portA = serverA.getBean(RpcRdmaServerLifecycle.class).port();
		int portB = serverB.getBean(RpcRdmaServerLifecycle.class).port();
		// A's RPC port only in its metadata (the instance port is a web port); B's as its port.
		ConfigurableApplicationContext client = start(ClientApp.class, "rpcrdma.server.enabled=false",
				"rpcrdma.client.greeter.address=discovery:///greeter",
				"spring.cloud.discovery.client.simple.instances.greeter[0].instance-id=greeter-a",
				"spring.cloud.discovery.client.simple.instances.greeter[0].uri=http://127.0.0.1:8080",
				"spring.cloud.discovery.client.simple.instances.greeter[0].metadata." + RpcRdmaDiscoveryMetadata.PORT + "="
						+ portA);
		Greeter greeter = client.getBean(Greeter.class);
		GreeterService a = serverA.getBean(GreeterService.class);
		GreeterService b = serverB.getBean(GreeterService.class);

		assertThat(greeter.greet("Ada")).isEqualTo("Hello, Ada");
		assertThat(a.calls).hasValue(1);
		CompletableFuture<String> inFlight = greeter.slowGreet("Grace");
		assertThat(a.entered.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();

		InstanceProperties onlyB = new InstanceProperties();
		onlyB.setInstanceId("greeter-b");
		onlyB.setServiceId("greeter");
		onlyB.setUri(URI.create("rdma://127.0.0.1:" + portB));
		client.getBean(SimpleDiscoveryProperties.class).getInstances().put("greeter", List.of(onlyB));
		client.publishEvent(new HeartbeatEvent(this, 1L));

		RpcClientFactory factory = client.getBean(RpcClientFactory.class);
		assertThat(factory.instances().get("greeter")).extracting((stats) -> stats.instance().id(), InstanceStats::state)
			.contains(org.assertj.core.groups.Tuple.tuple("greeter-a", InstanceState.DRAINING),
					org.assertj.core.groups.Tuple.tuple("greeter-b", InstanceState.UP));
		for (int i = 0; i < 5; i++) {
			assertThat(greeter.greet("Linus " + i)).isEqualTo("Hello, Linus " + i);
		}
		assertThat(b.calls).hasValue(5);
		assertThat(a.calls).hasValue(2);
		assertThat(inFlight).isNotDone();

		a.release.countDown();
		assertThat(inFlight.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("Hello slowly, Grace");
		// The drained instance's pool closes once its last call has ended.
		await().atMost(DEADLINE)
			.until(() -> factory.instances().get("greeter").stream().map((stats) -> stats.instance().id()).toList(),
					(ids) -> ids.equals(List.of("greeter-b")));
	}

	@Test
	void anEjectedInstanceMakesTheClientLookAgainWithoutAHeartbeat() {
		ConfigurableApplicationContext serverA = server();
		ConfigurableApplicationContext serverB = server();
		int portA = serverA.getBean(RpcRdmaServerLifecycle.class).port();
		int portB = serverB.getBean(RpcRdmaServerLifecycle.class).port();
		ConfigurableApplicationContext client = start(ClientApp.class, "rpcrdma.server.enabled=false",
				"rpcrdma.client.greeter.address=discovery:///greeter",
				"rpcrdma.client.greeter.ejection.consecutive-failures=1",
				"spring.cloud.discovery.client.simple.instances.greeter[0].instance-id=greeter-a",
				"spring.cloud.discovery.client.simple.instances.greeter[0].uri=rdma://127.0.0.1:" + portA);
		Greeter greeter = client.getBean(Greeter.class);
		assertThat(greeter.greet("Ada")).isEqualTo("Hello, Ada");

		// The registry now lists B only, and no heartbeat says so; then A goes away.
		InstanceProperties onlyB = new InstanceProperties();
		onlyB.setInstanceId("greeter-b");
		onlyB.setServiceId("greeter");
		onlyB.setUri(URI.create("rdma://127.0.0.1:" + portB));
		client.getBean(SimpleDiscoveryProperties.class).getInstances().put("greeter", List.of(onlyB));
		serverA.close();
		this.contexts.remove(serverA);

		// A's failures eject it, and the ejection alone makes the client find B.
		await().atMost(DEADLINE).ignoreExceptions().until(() -> greeter.greet("Grace"), "Hello, Grace"::equals);
		assertThat(serverB.getBean(GreeterService.class).calls).hasPositiveValue();
		assertThat(client.getBean(RpcClientFactory.class).instances().get("greeter"))
			.extracting((stats) -> stats.instance().id())
			.contains("greeter-b");
	}

	@Test
	void anInstanceWithoutAPortIsLeftOutAndItsAbsenceFailsCallsClearly() {
		ConfigurableApplicationContext client = start(ClientApp.class, "rpcrdma.server.enabled=false",
				"rpcrdma.client.greeter.address=discovery:///greeter",
				"spring.cloud.discovery.client.simple.instances.greeter[0].instance-id=broken",
				"spring.cloud.discovery.client.simple.instances.greeter[0].uri=http://127.0.0.1:8080",
				"spring.cloud.discovery.client.simple.instances.greeter[0].metadata." + RpcRdmaDiscoveryMetadata.PORT
						+ "=not-a-port");
		Greeter greeter = client.getBean(Greeter.class);
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> greeter.greet("nobody"))
			.hasMessageContaining("greeter");
		assertThat(client.getBean(RpcClientFactory.class).instances()).doesNotContainKey("greeter");
	}

	private ConfigurableApplicationContext server() {
		return start(ServerApp.class, "rpcrdma.server.address=127.0.0.1", "rpcrdma.server.port=0");
	}

	private ConfigurableApplicationContext start(Class<?> app, String... properties) {
		List<String> all = new ArrayList<>(List.of(COMMON));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return context;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GreeterService.class)
	static class ServerApp {

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@ImportRpcClients(value = Greeter.class, client = "greeter")
	static class ClientApp {

	}


}
