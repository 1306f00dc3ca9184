package io.rpcrdma.spring.boot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;

import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

/**
 * The whole application with actuator, over software iWARP on a random port: calls through an
 * injected client show up in health, in {@code /actuator/metrics/rpcrdma.server.calls} and in
 * {@code /actuator/rpcrdma}, read over HTTP.
 */
@SpringBootTest(classes = ActuatorSiwEndToEndTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "rpcrdma.provider=siw", "rpcrdma.server.port=0", "rpcrdma.server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=health,metrics,rpcrdma",
				"management.endpoint.health.show-details=always" })
class ActuatorSiwEndToEndTest {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(DEADLINE).build();

	@Autowired
	Greeter greeter;

	@Value("${local.server.port}")
	int httpPort;

	@Value("${" + RpcRdmaServerLifecycle.PORT_PROPERTY + "}")
	int rpcPort;

	@Test
	void healthIsUpWithTheProviderServerAndClient() throws Exception {
		assertThat(this.greeter.greet("health")).isEqualTo("Hello, health");

		DocumentContext health = get("/actuator/health");

		assertThat(health.read("$.status", String.class)).isEqualTo("UP");
		assertThat(health.read("$.components.rpcrdma.status", String.class)).isEqualTo("UP");
		assertThat(health.read("$.components.rpcrdma.details.provider", String.class)).isEqualTo("siw");
		assertThat(health.read("$.components.rpcrdma.details.server.listening", Boolean.class)).isTrue();
		assertThat(health.read("$.components.rpcrdma.details.server.port", Integer.class)).isEqualTo(this.rpcPort);
		assertThat(health.read("$.components.rpcrdma.details.server.connections", Integer.class)).isPositive();
		assertThat(health.read("$.components.rpcrdma.details.clients.default.status", String.class)).isEqualTo("UP");
	}

	@Test
	void serverCallsAreCountedInTheMetricsEndpoint() throws Exception {
		double before = serverGreetCalls();
		for (int i = 0; i < 3; i++) {
			assertThat(this.greeter.greet("metrics " + i)).isEqualTo("Hello, metrics " + i);
		}

		// The server's observation ends once its reply is sent, a moment after the client has it.
		await().atMost(DEADLINE).untilAsserted(() -> assertThat(serverGreetCalls()).isEqualTo(before + 3));
		DocumentContext client = get("/actuator/metrics/rpcrdma.client.calls?tag=method:greet&tag=outcome:success");
		List<Double> clientCalls = client.read("$.measurements[?(@.statistic=='COUNT')].value");
		assertThat(clientCalls).singleElement().satisfies((count) -> assertThat(count).isGreaterThanOrEqualTo(3));
		DocumentContext bytes = get("/actuator/metrics/rpcrdma.server.transport.bytes?tag=operation:send");
		assertThat(bytes.read("$.measurements[0].value", Double.class)).isPositive();
		// The default client's pool opened on its first call; its meters are bound just after.
		await().atMost(DEADLINE).untilAsserted(() -> assertThat(
				get("/actuator/metrics/rpcrdma.client.connections?tag=client:default").read("$.measurements[0].value",
						Double.class))
			.isEqualTo(1));
	}

	@Test
	void theRpcrdmaEndpointListsTheServicesAndConnections() throws Exception {
		assertThat(this.greeter.greet("endpoint")).isEqualTo("Hello, endpoint");

		DocumentContext rpcrdma = get("/actuator/rpcrdma");

		assertThat(rpcrdma.read("$.provider", String.class)).isEqualTo("siw");
		assertThat(rpcrdma.read("$.server.listening", Boolean.class)).isTrue();
		assertThat(rpcrdma.read("$.server.port", Integer.class)).isEqualTo(this.rpcPort);
		assertThat(rpcrdma.read("$.server.programs[0].name", String.class)).isEqualTo("Greeter");
		assertThat(rpcrdma.read("$.server.programs[0].program", String.class)).isEqualTo("0x20000800");
		List<String> procedures = rpcrdma.read("$.server.programs[0].procedures[*].name");
		assertThat(procedures).containsExactly("greet", "slowGreet");
		assertThat(rpcrdma.read("$.server.connections[0].version", Integer.class)).isEqualTo(2);
		assertThat(rpcrdma.read("$.clients.default.connections[0].version", Integer.class)).isEqualTo(2);
		assertThat(rpcrdma.read("$.clients.default.connections[0].creditsGranted", Integer.class)).isPositive();
		Map<String, Object> thresholds = rpcrdma.read("$.clients.default.connections[0].inlineThresholds[1]");
		assertThat(thresholds).containsEntry("version", 2).containsKeys("send", "receive");
	}

	private double serverGreetCalls() throws Exception {
		HttpResponse<String> response = send("/actuator/metrics/rpcrdma.server.calls?tag=method:greet&tag=outcome:success");
		if (response.statusCode() == 404) {
			// No call has been observed yet, so no timer exists.
			return 0;
		}
		assertThat(response.statusCode()).isEqualTo(200);
		List<Double> counts = JsonPath.parse(response.body()).read("$.measurements[?(@.statistic=='COUNT')].value");
		return counts.get(0);
	}

	private DocumentContext get(String path) throws Exception {
		HttpResponse<String> response = send(path);
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
		return JsonPath.parse(response.body());
	}

	private HttpResponse<String> send(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.httpPort + path))
			.timeout(DEADLINE)
			.GET()
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(GreeterService.class)
	@ImportRpcClients(Greeter.class)
	static class App {

	}

}
