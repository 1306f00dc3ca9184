package io.rpcrdma.spring.boot.autoconfigure.aot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.AnnotationConfigUtils;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;
import org.springframework.mock.env.MockEnvironment;

import io.rpcrdma.spring.boot.autoconfigure.client.RpcRdmaClientAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.export.RpcRdmaServiceExportAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.provider.RpcRdmaProviderAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerAutoConfiguration;
import io.rpcrdma.spring.boot.autoconfigure.service.RpcRdmaServiceAutoConfiguration;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.sample.Greeter;
import io.rpcrdma.spring.boot.sample.GreeterService;

/**
 * An application with an {@code @RpcService} bean and an {@code @ImportRpcClients} client,
 * processed ahead of time as {@code spring-boot:process-aot} does, then started from the
 * generated code alone (what {@code -Dspring.aot.enabled=true} runs) and called; and the
 * hints a native image of it would need. The generated code lives in Spring's packages and
 * reaches their package-private types, so the test runs in the class loader
 * {@code TestCompiler} forks, as Spring Boot's own AOT tests do.
 */
@CompileWithForkedClassLoader
class RpcRdmaAotTest {

	@Test
	void theGeneratedContextServesAndCallsTheService() {
		compileAndRun((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter).isNotInstanceOf(GreeterService.class);
			assertThat(greeter.greet("Ada")).isEqualTo("Hello, Ada");
			assertThat(context.getBean(GreeterService.class).calls).hasValue(1);
		});
	}

	@Test
	void aotProcessingRegistersTheHintsANativeImageNeeds() {
		TestGenerationContext generation = new TestGenerationContext();
		new ApplicationContextAotGenerator().processAheadOfTime(applicationContext(), generation);
		RuntimeHints hints = generation.getRuntimeHints();
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(Greeter.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Greeter.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(GreeterService.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource(RpcRdmaRuntimeHints.PROVIDER_FACTORIES)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(io.rpcrdma.verbs.siw.SiwProviderFactory.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS)).accepts(hints);
	}

	private static void compileAndRun(Consumer<GenericApplicationContext> check) {
		TestGenerationContext generation = new TestGenerationContext();
		ClassName initializerName = new ApplicationContextAotGenerator().processAheadOfTime(applicationContext(),
				generation);
		generation.writeGeneratedContent();
		TestCompiler.forSystem().with(generation).compile((compiled) -> {
			try (GenericApplicationContext fresh = new GenericApplicationContext()) {
				fresh.setEnvironment(environment());
				@SuppressWarnings("unchecked")
				ApplicationContextInitializer<GenericApplicationContext> initializer = compiled
					.getInstance(ApplicationContextInitializer.class, initializerName.toString());
				initializer.initialize(fresh);
				fresh.refresh();
				check.accept(fresh);
			}
		});
	}

	private static GenericApplicationContext applicationContext() {
		GenericApplicationContext context = new GenericApplicationContext();
		context.setEnvironment(environment());
		AnnotationConfigUtils.registerAnnotationConfigProcessors(context);
		context.registerBean(AotApplication.class);
		return context;
	}

	private static MockEnvironment environment() {
		return new MockEnvironment().withProperty("rpcrdma.provider", "loopback")
			.withProperty("rpcrdma.server.address", "aot-application")
			.withProperty("rpcrdma.server.port", "0");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ RpcRdmaProviderAutoConfiguration.class, RpcRdmaServiceAutoConfiguration.class,
			RpcRdmaServiceExportAutoConfiguration.class, RpcRdmaServerAutoConfiguration.class,
			RpcRdmaClientAutoConfiguration.class })
	@Import(GreeterService.class)
	@ImportRpcClients(Greeter.class)
	public static class AotApplication {

	}

}
