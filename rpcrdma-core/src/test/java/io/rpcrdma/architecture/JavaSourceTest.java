package io.rpcrdma.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The layering rules see what code names and nothing else, so LayeringTest fails on a breach
 * and not on a comment.
 */
class JavaSourceTest {

	private static JavaSource source(String path, String text) {
		return JavaSource.parse(Path.of(path), text);
	}

	@Test
	void importsAndQualifiedNamesInCodeAreReferencesCommentsAndStringsAreNot() {
		JavaSource source = source("Probe.java", """
				package io.rpcrdma.transport;

				import io.rpcrdma.verbs.support.RefusalLog;
				import static io.rpcrdma.client.RpcClient.connect;
				import io.rpcrdma.protocol.*;

				/** Sees {@link io.rpcrdma.server.RpcDispatcher}. */
				class Probe {
					// io.rpcrdma.server.ServerCall in a line comment
					String name = "io.rpcrdma.server.ProgramRegistry";
					char quote = '"';
					io.rpcrdma.verbs.WorkCompletion completion;
					Object cap = io.rpcrdma.transport.RpcRdmaServerConnection.MAX_BACKWARD_CREDITS;
				}
				""");
		assertThat(source.className()).isEqualTo("io.rpcrdma.transport.Probe");
		assertThat(source.imported()).containsExactly("io.rpcrdma.verbs.support.RefusalLog",
				"io.rpcrdma.client.RpcClient", "io.rpcrdma.protocol");
		assertThat(source.qualified()).containsExactly("io.rpcrdma.verbs.WorkCompletion",
				"io.rpcrdma.transport.RpcRdmaServerConnection");
		assertThat(source.mentions("RpcDispatcher")).isFalse();
		assertThat(source.mentions("Probe")).isTrue();
	}

	@Test
	void theRulesNameEachBreach() {
		List<JavaSource> sources = List.of(source("RpcRdmaClientConnection.java", """
				package io.rpcrdma.transport;
				import io.rpcrdma.verbs.siw.SiwProvider;
				import io.rpcrdma.client.RpcCaller;
				class RpcRdmaClientConnection { Object o = RpcRdmaServerConnection.class; }
				"""), source("ServiceCall.java", """
				package io.rpcrdma.service;
				import io.rpcrdma.verbs.WaitingCaller;
				class ServiceCall { }
				"""), source("Backchannels.java", """
				package io.rpcrdma.server;
				class Backchannels { io.rpcrdma.client.RpcClient client; }
				"""));
		assertThat(LayerRules.layering(sources)).extracting(Violation::toString)
			.containsExactlyInAnyOrder(
					"provider-helpers: io.rpcrdma.transport.RpcRdmaClientConnection -> io.rpcrdma.verbs.siw.SiwProvider",
					"upward: io.rpcrdma.transport.RpcRdmaClientConnection -> io.rpcrdma.client.RpcCaller",
					"sideways: io.rpcrdma.transport.RpcRdmaClientConnection -> io.rpcrdma.transport.RpcRdmaServerConnection",
					"service-verbs: io.rpcrdma.service.ServiceCall -> io.rpcrdma.verbs.WaitingCaller",
					"server-client: io.rpcrdma.server.Backchannels -> io.rpcrdma.client.RpcClient");
		assertThat(LayerRules.qualifiedNames(sources)).extracting(Violation::toString)
			.containsExactly("qualified-name: io.rpcrdma.server.Backchannels -> io.rpcrdma.client.RpcClient");
	}

	@Test
	void aMalformedAllowListEntryIsRefusedByName() {
		assertThatIllegalArgumentException().isThrownBy(() -> Violation.parse("client-server RpcClient"))
			.withMessageContaining("client-server RpcClient");
	}

}
