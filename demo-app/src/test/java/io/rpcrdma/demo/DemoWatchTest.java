package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code watch <prefix> <count>} in the client profile: the store served by another
 * application calls the watching client back on the connection the client opened (RFC 8167),
 * one line per change under the prefix; changes elsewhere are not told, and a client that has
 * gone is forgotten by the store.
 */
class DemoWatchTest {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@Test
	void aWatchingClientIsToldOfChangesUnderItsPrefixOnItsOwnConnection() throws Exception {
		try (ConfigurableApplicationContext server = new SpringApplicationBuilder(DemoApplication.class)
			.profiles("server")
			.web(WebApplicationType.NONE)
			.properties("rpcrdma.server.address=127.0.0.1", "rpcrdma.server.port=0")
			.run()) {
			int port = server.getBean(RpcRdmaServerLifecycle.class).localAddress().orElseThrow().getPort();
			ObjectStoreService store = server.getBean(ObjectStoreService.class);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			CompletableFuture<Integer> watching;
			try (ConfigurableApplicationContext client = new SpringApplicationBuilder(DemoApplication.class)
				.profiles("client")
				.web(WebApplicationType.NONE)
				.properties("rpcrdma.client.store.address=127.0.0.1:" + port)
				.run()) {
				DemoRunner runner = client.getBean(DemoRunner.class);
				runner.printTo(new PrintStream(out, true, StandardCharsets.UTF_8),
						new PrintStream(err, true, StandardCharsets.UTF_8));
				watching = CompletableFuture.supplyAsync(() -> runner.run(List.of("watch", "docs/", "2")));
				await().atMost(DEADLINE).until(() -> store.watchers().count() == 1);

				ObjectStore other = client.getBean(ObjectStore.class);
				other.put("photos/cat", BulkData.wrap(new byte[10]));
				other.put("docs/readme", BulkData.wrap(new byte[2048]));
				other.delete("docs/readme");

				assertThat(watching.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as(err.toString(StandardCharsets.UTF_8))
					.isZero();
			}
			String printed = out.toString(StandardCharsets.UTF_8);
			assertThat(printed).contains("watching 'docs/' at 127.0.0.1:" + port)
				.contains("put docs/readme (2 KiB)")
				.contains("deleted docs/readme")
				.doesNotContain("photos/cat");
			// The client has gone: the next change finds its connection lost, and the store forgets it.
			store.put("docs/after", BulkData.wrap(new byte[1]));
			await().atMost(DEADLINE).until(() -> store.watchers().count() == 0);
		}
	}

}
