package io.rpcrdma.spring.boot.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.spring.boot.autoconfigure.discovery.RpcRdmaDiscoveryMetadata;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Against a real ZooKeeper (Curator's TestingServer on 127.0.0.1): a server application
 * without a web server is registered by spring-cloud-zookeeper-discovery with its RPC port in
 * the metadata, a client application resolves {@code discovery:///greeter-zk} through
 * ZooKeeper and calls it over siw, and closing the server application takes the instance out
 * of ZooKeeper.
 */
class ZooKeeperDiscoveryEndToEndTest {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private TestingServer zookeeper;

	private Path data;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@BeforeEach
	void startZooKeeper() throws Exception {
		this.data = Files.createTempDirectory("rpcrdma-zookeeper");
		try {
			// Bound to 127.0.0.1 only, on a free port.
			InstanceSpec spec = new InstanceSpec(this.data.toFile(), -1, -1, -1, true, -1, -1, -1,
					Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
			this.zookeeper = new TestingServer(spec, true);
		}
		catch (Exception ex) {
			// The process's own stdout: surefire sends System.out to a report file nobody reads.
			new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8)
				.println("!!! CONFORMANCE SKIPPED: an embedded ZooKeeper could not start on 127.0.0.1 (" + ex + ")");
			Assumptions.abort("ZooKeeper could not start: " + ex.getMessage());
		}
	}

	@AfterEach
	void stopAll() throws Exception {
		for (int i = this.contexts.size() - 1; i >= 0; i--) {
			this.contexts.get(i).close();
		}
		if (this.zookeeper != null) {
			this.zookeeper.close();
		}
	}

	@Test
	void serverRegistersWithItsRpcPortClientResolvesAndCallsAndClosingDeregisters() {
		ConfigurableApplicationContext server = start(SimpleDiscoveryClientEndToEndTest.ServerApp.class,
				"spring.application.name=greeter-zk", "rpcrdma.server.address=127.0.0.1", "rpcrdma.server.port=0");
		int rpcPort = server.getBean(RpcRdmaServerLifecycle.class).port();

		ConfigurableApplicationContext client = start(SimpleDiscoveryClientEndToEndTest.ClientApp.class,
				"spring.application.name=greeter-zk-client", "spring.cloud.zookeeper.discovery.register=false",
				"rpcrdma.server.enabled=false", "rpcrdma.client.greeter.address=discovery:///greeter-zk");
		DiscoveryClient discovery = client.getBean(DiscoveryClient.class);
		List<ServiceInstance> registered = discovery.getInstances("greeter-zk");
		assertThat(registered).singleElement().satisfies((instance) -> {
			assertThat(instance.getHost()).isEqualTo("127.0.0.1");
			assertThat(instance.getMetadata()).containsEntry(RpcRdmaDiscoveryMetadata.PORT, Integer.toString(rpcPort))
				.containsEntry(RpcRdmaDiscoveryMetadata.PROVIDER, "siw")
				.containsEntry(RpcRdmaDiscoveryMetadata.VERSIONS, "1,2")
				.containsEntry(RpcRdmaDiscoveryMetadata.PROGRAMS, Integer.toUnsignedString(0x20000800) + ":1");
		});

		assertThat(client.getBean(Greeter.class).greet("ZooKeeper")).isEqualTo("Hello, ZooKeeper");
		assertThat(server.getBean(GreeterService.class).calls).hasValue(1);

		server.close();
		this.contexts.remove(server);
		// ZooKeeper drops the node at once on deregistration (not at session expiry): a short wait.
		await().atMost(DEADLINE).until(() -> discovery.getInstances("greeter-zk"), List::isEmpty);
	}

	private ConfigurableApplicationContext start(Class<?> app, String... properties) {
		List<String> all = new ArrayList<>(List.of("rpcrdma.provider=siw",
				"spring.cloud.zookeeper.enabled=true",
				"spring.cloud.zookeeper.connect-string=" + this.zookeeper.getConnectString(),
				"spring.cloud.zookeeper.discovery.instance-host=127.0.0.1"));
		all.addAll(List.of(properties));
		// As arguments, so that they win over the test application.properties, which turns ZooKeeper off.
		ConfigurableApplicationContext context = new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
			.run(all.stream().map((property) -> "--" + property).toArray(String[]::new));
		this.contexts.add(context);
		return context;
	}

}
