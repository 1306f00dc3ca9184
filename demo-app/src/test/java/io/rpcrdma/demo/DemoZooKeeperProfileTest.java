package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code --spring.profiles.active=server,zookeeper} registers the object store's RPC port in
 * ZooKeeper, and {@code client,zookeeper} finds it there through
 * {@code discovery:///object-store} and runs a command, against a real ZooKeeper (Curator's
 * embedded TestingServer on 127.0.0.1).
 */
class DemoZooKeeperProfileTest {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private TestingServer zookeeper;

	private Path data;

	@BeforeEach
	void startZooKeeper() throws Exception {
		this.data = Files.createTempDirectory("rpcrdma-demo-zookeeper");
		try {
			InstanceSpec spec = new InstanceSpec(this.data.toFile(), -1, -1, -1, true, -1, -1, -1,
					Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
			this.zookeeper = new TestingServer(spec, true);
		}
		catch (Exception ex) {
			new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8)
				.println("!!! CONFORMANCE SKIPPED: an embedded ZooKeeper could not start on 127.0.0.1 (" + ex + ")");
			Assumptions.abort("ZooKeeper could not start: " + ex.getMessage());
		}
	}

	@AfterEach
	void stopZooKeeper() throws Exception {
		if (this.zookeeper != null) {
			this.zookeeper.close();
		}
	}

	@Test
	void theServerRegistersInZooKeeperAndTheClientFindsItThere() throws Exception {
		String connect = "--spring.cloud.zookeeper.connect-string=" + this.zookeeper.getConnectString();
		try (ConfigurableApplicationContext server = new SpringApplicationBuilder(DemoApplication.class)
			.profiles("server", "zookeeper")
			.web(WebApplicationType.NONE)
			.run(connect, "--rpcrdma.server.address=127.0.0.1", "--rpcrdma.server.port=0",
					"--spring.cloud.zookeeper.discovery.instance-host=127.0.0.1")) {
			int port = server.getBean(RpcRdmaServerLifecycle.class).localAddress().orElseThrow().getPort();
			try (ConfigurableApplicationContext client = new SpringApplicationBuilder(DemoApplication.class)
				.profiles("client", "zookeeper")
				.web(WebApplicationType.NONE)
				.run(connect)) {
				assertThat(client.getBean(DiscoveryClient.class).getInstances("object-store")).singleElement()
					.satisfies((instance) -> assertThat(instance.getMetadata()).containsEntry("rpcrdma-port",
							Integer.toString(port)));
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				ByteArrayOutputStream err = new ByteArrayOutputStream();
				DemoRunner runner = client.getBean(DemoRunner.class);
				runner.printTo(new PrintStream(out, true, StandardCharsets.UTF_8),
						new PrintStream(err, true, StandardCharsets.UTF_8));

				assertThat(runner.run(List.of("status"))).as(err.toString(StandardCharsets.UTF_8)).isZero();
				assertThat(out.toString(StandardCharsets.UTF_8)).contains("0 objects");
			}
		}
	}

}
