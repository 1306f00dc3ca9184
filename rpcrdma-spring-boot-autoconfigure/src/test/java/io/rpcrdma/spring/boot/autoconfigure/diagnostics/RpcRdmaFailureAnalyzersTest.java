package io.rpcrdma.spring.boot.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.sample.GreeterService;
import io.rpcrdma.spring.boot.sample.SecondGreeterService;

/**
 * Each start-up failure a user can cause, provoked for real, and the analysis Boot prints for
 * it: the description says what is wrong, the action what to do.
 */
class RpcRdmaFailureAnalyzersTest {

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("failure-analysis");

	@Test
	void aProviderThatCannotRunHereNamesEachMissingRequirementAndTheAlternatives() {
		// No RDMA device here, so DiSNI cannot run: the analysis lists what it misses.
		analyze(this.runner.withPropertyValues("rpcrdma.provider=disni").withUserConfiguration(GreeterService.class),
				new ProviderUnavailableFailureAnalyzer(), (analysis) -> {
					assertThat(analysis.getDescription()).startsWith("rpcrdma.provider is 'disni', which cannot run here: ")
						.contains("an RDMA device under /sys/class/infiniband")
						.contains("Or set rpcrdma.provider to another provider (available here: ")
						.contains("siw")
						.contains("docs/hardware.md");
					assertThat(analysis.getAction()).contains("- use an InfiniBand, RoCE or iWARP NIC");
					assertThat(analysis.getAction().lines()).allMatch((line) -> line.startsWith("- "));
				});
	}

	@Test
	void anUnknownProviderIsAnInvalidPropertyListingTheKnownOnes() {
		analyze(this.runner.withPropertyValues("rpcrdma.provider=infiniband-please").withUserConfiguration(GreeterService.class),
				new RpcRdmaPropertiesFailureAnalyzer(), (analysis) -> {
					assertThat(analysis.getDescription()).contains("- rpcrdma.provider must be one of")
						.contains("infiniband-please");
					assertThat(analysis.getAction()).contains("docs/configuration.md");
				});
	}

	@Test
	void aPortInUseSaysWhichPortAndHowToChooseAnother() throws IOException {
		try (ServerSocket taken = new ServerSocket()) {
			taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
			int port = taken.getLocalPort();
			analyze(this.runner.withPropertyValues("rpcrdma.provider=siw", "rpcrdma.server.address=127.0.0.1",
					"rpcrdma.server.port=" + port).withUserConfiguration(GreeterService.class),
					new RpcServerListenFailureAnalyzer(), (analysis) -> {
						assertThat(analysis.getDescription()).isEqualTo("The RPC-over-RDMA server could not listen on "
								+ "127.0.0.1:" + port + " (provider siw): the port is already in use.");
						assertThat(analysis.getAction()).startsWith("Stop whatever listens on port " + port)
							.contains("rpcrdma.server.port").contains("0 picks a free one");
					});
		}
	}

	@Test
	void anAddressThatDoesNotResolveIsNamed() {
		analyze(this.runner.withPropertyValues("rpcrdma.provider=siw", "rpcrdma.server.address=no-such-host.invalid")
			.withUserConfiguration(GreeterService.class), new RpcServerListenFailureAnalyzer(), (analysis) -> {
				assertThat(analysis.getDescription())
					.contains("rpcrdma.server.address 'no-such-host.invalid' does not resolve to an IP address");
				assertThat(analysis.getAction()).contains("an IP address or a host name this machine resolves");
			});
	}

	@Test
	void invalidPropertiesAreListedWithWhereTheRulesAre() {
		analyze(this.runner.withPropertyValues("rpcrdma.server.port=-5").withUserConfiguration(GreeterService.class),
				new RpcRdmaPropertiesFailureAnalyzer(), (analysis) -> {
					assertThat(analysis.getDescription()).startsWith("Invalid rpcrdma.* configuration:")
						.contains("- rpcrdma.server.port must be between 0 and 65535, got -5");
					assertThat(analysis.getAction()).contains("docs/configuration.md");
				});
	}

	@Test
	void aServiceInterfaceTheBindingCannotMapNamesTheMethodAndType() {
		analyze(this.runner.withUserConfiguration(UnmappableService.class), new RpcServiceExportFailureAnalyzer(),
				(analysis) -> {
					assertThat(analysis.getDescription()).startsWith("@RpcService bean ")
						.contains(Unmappable.class.getName())
						.contains("start")
						.contains(Thread.class.getName());
					assertThat(analysis.getAction()).contains("a type the service binding maps").contains("codec");
				});
	}

	@Test
	void twoBeansServingOneProgramVersionAreBothNamed() {
		analyze(this.runner.withUserConfiguration(GreeterService.class, SecondGreeter.class),
				new RpcServiceExportFailureAnalyzer(), (analysis) -> {
					assertThat(analysis.getDescription()).contains(GreeterService.class.getName())
						.contains(SecondGreeterService.class.getName());
					assertThat(analysis.getAction()).startsWith("Serve each program version from one bean");
				});
	}

	@Test
	void aBeanWithoutAProgramInterfaceIsNamed() {
		analyze(this.runner.withUserConfiguration(NotAService.class), new RpcServiceExportFailureAnalyzer(),
				(analysis) -> {
					assertThat(analysis.getDescription()).contains("'notAService'")
						.contains("implements no interface annotated @RpcProgram");
					assertThat(analysis.getAction()).contains("annotated @RpcProgram").contains("remove @RpcService");
				});
	}

	@Test
	void aClientInterfaceThatIsNotAnRpcProgramIsNamed() {
		analyze(this.runner.withUserConfiguration(ImportNotAService.class), new InvalidRpcClientInterfaceFailureAnalyzer(),
				(analysis) -> {
					assertThat(analysis.getDescription()).startsWith("@ImportRpcClients lists java.lang.Runnable")
						.contains("not an interface annotated @RpcProgram");
					assertThat(analysis.getAction()).contains("List only service interfaces annotated @RpcProgram");
				});
	}

	private static void analyze(ApplicationContextRunner runner, FailureAnalyzer analyzer, Consumer<FailureAnalysis> check) {
		runner.run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
			assertThat(analysis).as("an analysis of %s", context.getStartupFailure()).isNotNull();
			check.accept(analysis);
		});
	}

	/** A service interface with a method the binding cannot map. */
	@RpcProgram(number = 0x20000900, version = 1)
	public interface Unmappable {

		@RpcProcedure(1)
		void start(Thread thread);

	}

	@Configuration(proxyBeanMethods = false)
	static class UnmappableService {

		@Bean
		@RpcService
		Unmappable unmappable() {
			return (thread) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SecondGreeter {

		@Bean
		@RpcService
		SecondGreeterService secondGreeter() {
			return new SecondGreeterService();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NotAService {

		@Bean
		@RpcService
		Runnable notAService() {
			return () -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportRpcClients(Runnable.class)
	static class ImportNotAService {

	}

}
