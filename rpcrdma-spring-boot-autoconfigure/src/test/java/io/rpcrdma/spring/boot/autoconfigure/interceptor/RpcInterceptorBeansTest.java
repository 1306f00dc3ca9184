package io.rpcrdma.spring.boot.autoconfigure.interceptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.server.CallRejectedException;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.RpcServerInterceptor;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.client.RpcClientCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

/**
 * Interceptor beans: every {@link RpcClientInterceptor} bean acts around every client's calls
 * and every {@link RpcServerInterceptor} bean around every served call, in {@code @Order};
 * a customizer adds one to a single named client, and {@code onlyFor} keeps one to a service.
 */
class RpcInterceptorBeansTest {

	private static final int TOKEN = 0x2000_0002;

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("interceptor-beans")
		.withUserConfiguration(GreeterService.class, Interceptors.class);

	@Test
	void interceptorBeansActAroundEveryCallInTheirOrder() {
		this.runner.run((context) -> {
			Greeter greeter = context.getBean(RpcClientFactory.class).createClient(Greeter.class, "default");
			assertThat(greeter.greet("Ada")).isEqualTo("Hello, Ada");
			assertThat(context.getBean(Interceptors.class).trace).containsExactly("client first", "client second",
					"server token tenant-1");
		});
	}

	@Test
	void aServerInterceptorBeanRefusesCallsWithoutTheToken() {
		this.runner.withPropertyValues("interceptors.token=false").run((context) -> {
			Greeter greeter = context.getBean(RpcClientFactory.class).createClient(Greeter.class, "default");
			assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> greeter.greet("Ada"))
				.withMessageContaining("AUTH_BADCRED");
			assertThat(context.getBean(GreeterService.class).calls).hasValue(0);
		});
	}

	@Test
	void aCustomizerAddsAnInterceptorToOneNamedClient() {
		this.runner.withUserConfiguration(AuditOneClient.class).run((context) -> {
			RpcClientFactory factory = context.getBean(RpcClientFactory.class);
			factory.createClient(Greeter.class, "default").greet("plain");
			factory.createClient(Greeter.class, "audited").greet("watched");
			assertThat(context.getBean(AuditOneClient.class).audited).containsExactly("watched");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Interceptors {

		final List<String> trace = new CopyOnWriteArrayList<>();

		@Bean
		@Order(2)
		RpcClientInterceptor second() {
			return (invocation) -> {
				this.trace.add("client second");
				return invocation.proceed();
			};
		}

		@Bean
		@Order(1)
		RpcClientInterceptor first(org.springframework.core.env.Environment environment) {
			boolean token = environment.getProperty("interceptors.token", Boolean.class, true);
			return (invocation) -> {
				this.trace.add("client first");
				if (token) {
					invocation.credential(new RawAuth(TOKEN, "tenant-1".getBytes(StandardCharsets.US_ASCII)));
				}
				return invocation.proceed();
			};
		}

		@Bean
		RpcServerInterceptor tokenCheck() {
			RpcServerInterceptor check = (invocation) -> {
				if (!(invocation.credential() instanceof RawAuth raw) || raw.flavor() != TOKEN) {
					throw new CallRejectedException(AuthStat.AUTH_BADCRED, "no token");
				}
				this.trace.add("server token " + new String(raw.body(), StandardCharsets.US_ASCII));
				return invocation.proceed();
			};
			return check.onlyFor(Greeter.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AuditOneClient {

		final List<Object> audited = new CopyOnWriteArrayList<>();

		@Bean
		RpcClientCustomizer auditTheAuditedClient() {
			return (spec) -> spec.name().equals("audited") ? spec.withInterceptor((invocation) -> {
				this.audited.add(invocation.arguments()[0]);
				return invocation.proceed();
			}) : spec;
		}

	}

}
