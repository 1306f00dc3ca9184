package io.rpcrdma.spring.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

/**
 * Two Spring Boot applications over siw on 127.0.0.1, each traced by Micrometer Tracing with
 * the OpenTelemetry bridge (Boot's own auto-configuration) into one in-memory span exporter:
 * the client's span and the server's span of one call are in one trace, the server's the
 * client's child, because the call carried the W3C trace context
 * ({@link io.rpcrdma.protocol.TraceContextOption}). A Version One server (as Linux's is)
 * still answers, in a trace of its own.
 */
class TraceContextPropagationTest {

	private final InMemorySpanExporter spans = InMemorySpanExporter.create();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		for (int i = this.contexts.size() - 1; i >= 0; i--) {
			this.contexts.get(i).close();
		}
	}

	@Test
	void aCallsClientAndServerSpansAreOneTraceTheServersParentBeingTheClients() {
		ConfigurableApplicationContext server = start(ServerApp.class, "spring.application.name=greeter-server",
				"rpcrdma.server.address=127.0.0.1", "rpcrdma.server.port=0");
		int port = server.getBean(RpcRdmaServerLifecycle.class).port();
		ConfigurableApplicationContext client = start(ClientApp.class, "spring.application.name=greeter-client",
				"rpcrdma.server.enabled=false", "rpcrdma.client.greeter.address=127.0.0.1:" + port);

		assertThat(client.getBean(Greeter.class).greet("Ada")).isEqualTo("Hello, Ada");
		flush();

		SpanData clientSpan = only(SpanKind.CLIENT);
		SpanData serverSpan = only(SpanKind.SERVER);
		assertThat(clientSpan.getName()).isEqualTo("Greeter/greet");
		assertThat(serverSpan.getName()).isEqualTo("Greeter/greet");
		assertThat(serverSpan.getTraceId()).isEqualTo(clientSpan.getTraceId());
		assertThat(serverSpan.getParentSpanId()).isEqualTo(clientSpan.getSpanId());
		// OpenTelemetry's RPC semantic conventions.
		assertThat(clientSpan.getAttributes().get(AttributeKey.stringKey("rpc.system"))).isEqualTo("onc_rpc");
		assertThat(clientSpan.getAttributes().get(AttributeKey.stringKey("rpc.service"))).isEqualTo("Greeter");
		assertThat(clientSpan.getAttributes().get(AttributeKey.stringKey("rpc.method"))).isEqualTo("greet");
		assertThat(serverSpan.getAttributes().get(AttributeKey.stringKey("rpc.system"))).isEqualTo("onc_rpc");

		// Once the client has resolved its one instance, its endpoint names the server.
		this.spans.reset();
		assertThat(client.getBean(Greeter.class).greet("Grace")).isEqualTo("Hello, Grace");
		flush();
		SpanData second = only(SpanKind.CLIENT);
		assertThat(second.getAttributes().get(AttributeKey.stringKey("server.address")))
			.as("server.address of endpoint %s", second.getAttributes().get(AttributeKey.stringKey("endpoint")))
			.isEqualTo("127.0.0.1");
		assertThat(second.getAttributes().get(AttributeKey.stringKey("server.port"))).isEqualTo(Integer.toString(port));
		assertThat(only(SpanKind.SERVER).getParentSpanId()).isEqualTo(second.getSpanId());
	}

	@Test
	void aVersionOneServerAnswersTracedCallsInATraceOfItsOwn() {
		ConfigurableApplicationContext server = start(ServerApp.class, "spring.application.name=greeter-server",
				"rpcrdma.server.address=127.0.0.1", "rpcrdma.server.port=0", "rpcrdma.server.versions=1");
		int port = server.getBean(RpcRdmaServerLifecycle.class).port();
		ConfigurableApplicationContext client = start(ClientApp.class, "spring.application.name=greeter-client",
				"rpcrdma.server.enabled=false", "rpcrdma.client.greeter.address=127.0.0.1:" + port);

		assertThat(client.getBean(Greeter.class).greet("Ada")).isEqualTo("Hello, Ada");
		assertThat(client.getBean(Greeter.class).greet("Grace")).isEqualTo("Hello, Grace");
		flush();

		List<SpanData> clientSpans = of(SpanKind.CLIENT);
		List<SpanData> serverSpans = of(SpanKind.SERVER);
		assertThat(clientSpans).hasSize(2);
		assertThat(serverSpans).hasSize(2);
		for (SpanData served : serverSpans) {
			assertThat(clientSpans).noneMatch((called) -> called.getTraceId().equals(served.getTraceId()));
		}
	}

	private void flush() {
		for (ConfigurableApplicationContext context : this.contexts) {
			context.getBean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);
		}
	}

	private SpanData only(SpanKind kind) {
		List<SpanData> found = of(kind);
		assertThat(found).as("%s spans", kind).hasSize(1);
		return found.get(0);
	}

	private List<SpanData> of(SpanKind kind) {
		return this.spans.getFinishedSpanItems().stream().filter((span) -> span.getKind() == kind).toList();
	}

	private ConfigurableApplicationContext start(Class<?> app, String... properties) {
		List<String> all = new ArrayList<>(List.of("rpcrdma.provider=siw", "management.tracing.sampling.probability=1.0"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("inMemorySpanExporter", this.spans))
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
