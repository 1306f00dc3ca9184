package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rpcrdma.demo.store.ObjectNotFoundException;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectTooLargeException;
import io.rpcrdma.service.BulkData;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The all-in-one mode as the README runs it, over software iWARP on 127.0.0.1, with a tiny
 * workload: results table, conveyance counted by the transport, actuator over HTTP, and the
 * store's exceptions travelling back through the client proxy as faults.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "demo.workload.duration=30s", "demo.workload.max-calls=200", "demo.workload.threads=2",
				"demo.workload.largest-object=2MB", "demo.store.max-object-size=4MB" })
class DemoAllInOneTest {

	@Autowired
	DemoRunner runner;

	@Autowired
	ObjectStore store;

	@Value("${local.server.port}")
	int httpPort;

	@Test
	void runsTheWorkloadOverSiwPrintsTheResultsAndKeepsServingActuator() throws Exception {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		this.runner.printTo(new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
		assertThat(this.runner.run(List.of())).isZero();
		String printed = out.toString(StandardCharsets.UTF_8);
		assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
		assertThat(printed).contains("Object store served over siw at 127.0.0.1:")
			.containsPattern("workload 100%")
			.containsPattern("\\nall\\s+\\d+\\s")
			.contains("Still serving")
			.contains("http://127.0.0.1:" + this.httpPort + "/actuator/health")
			.contains("http://127.0.0.1:" + this.httpPort + "/actuator/metrics");
		// Put contents went by Read chunk and read/get contents by Write chunk, as counted by
		// the transport on each side.
		assertThat(counter(printed, "Read chunks advertised \\(put contents\\)")).isPositive();
		assertThat(counter(printed, "Write chunks filled \\(get and read contents\\)")).isPositive();

		assertThat(printed).contains("http://127.0.0.1:" + this.httpPort + "/actuator/rpcrdma");
		assertThat(get("/actuator/health")).contains("\"status\":\"UP\"");
		assertThat(get("/actuator/metrics")).contains("rpcrdma.client.calls").contains("rpcrdma.server.calls");
		assertThat(get("/actuator/metrics/rpcrdma.client.calls")).contains("\"COUNT\"");
		assertThat(get("/actuator/rpcrdma")).contains("ObjectStore");
	}

	private String get(String path) throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.httpPort + path))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return response.body();
	}

	@Test
	void theStoresExceptionsComeBackThroughTheProxyAsTheirOwnTypes() {
		assertThatExceptionOfType(ObjectNotFoundException.class).isThrownBy(() -> this.store.stat("no/such/object"))
			.withMessage("No object 'no/such/object' in the store");
		assertThatExceptionOfType(ObjectTooLargeException.class)
			.isThrownBy(() -> this.store.put("too/big", BulkData.wrap(new byte[(4 << 20) + 1])))
			.withMessageContaining("larger than this store's limit of 4 MiB");
		byte[] data = ObjectStoreServiceTest.bytes(3 << 20, 9);
		this.store.put("just/right", BulkData.wrap(data));
		assertThat(this.store.get("just/right").toByteArray()).isEqualTo(data);
		assertThat(this.store.read("just/right", 1 << 20, 16).toByteArray()).hasSize(16);
		assertThat(this.store.delete("just/right")).isTrue();
	}

	private static long counter(String printed, String label) {
		Matcher matcher = Pattern.compile(label + "\\s+(\\d+)").matcher(printed);
		assertThat(matcher.find()).as(label + " in\n" + printed).isTrue();
		return Long.parseLong(matcher.group(1));
	}

}
