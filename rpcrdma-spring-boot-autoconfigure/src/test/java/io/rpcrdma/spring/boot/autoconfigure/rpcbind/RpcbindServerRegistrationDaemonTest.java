package io.rpcrdma.spring.boot.autoconfigure.rpcbind;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.discovery.rpcbind.RpcbindDaemon;
import io.rpcrdma.discovery.rpcbind.RpcbindDaemonExtension;
import io.rpcrdma.discovery.rpcbind.RpcbindResolver;
import io.rpcrdma.service.ServiceDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.sample.GreeterService;

import org.springframework.boot.autoconfigure.AutoConfigurations;

/**
 * A Spring application over software iWARP with rpcrdma.server.rpcbind.enabled: while it runs,
 * the real rpcbind holds its service under netid rdma at the port it listens on (rpcinfo
 * says so, the resolver finds it); once the context closes, rpcbind holds it no more.
 */
@Tag("conformance")
@ExtendWith(RpcbindDaemonExtension.class)
class RpcbindServerRegistrationDaemonTest {

	@Test
	void theServerIsRegisteredWhileItRunsAndUnregisteredWhenTheContextCloses(RpcbindDaemon rpcbind) throws Exception {
		RpcRdmaAutoConfigurations.runner("unused")
			.withConfiguration(AutoConfigurations.of(RpcRdmaRpcbindAutoConfiguration.class))
			.withUserConfiguration(GreeterService.class)
			.withPropertyValues("rpcrdma.provider=siw", "rpcrdma.server.address=127.0.0.1",
					"rpcrdma.server.rpcbind.enabled=true", "rpcrdma.server.rpcbind.address=127.0.0.1:111")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RpcRdmaServerLifecycle lifecycle = context.getBean(RpcRdmaServerLifecycle.class);
				ServiceDescriptor greeter = lifecycle.exportedServices().get(0).descriptor();
				InetSocketAddress bound = lifecycle.server().orElseThrow().localAddress();
				String program = Integer.toUnsignedString(greeter.program());
				Pattern row = Pattern.compile("(?m)^\\s*" + program + "\\s+" + greeter.version() + "\\s+rdma\\s+"
						+ Pattern.quote("127.0.0.1." + (bound.getPort() >> 8) + "." + (bound.getPort() & 0xFF)) + "\\s");

				assertThat(rpcbind.rpcinfo("127.0.0.1")).containsPattern(row);
				assertThat(new RpcbindResolver().resolve(rpcbind.address(), greeter.program(), greeter.version()))
					.isEqualTo(bound);
				assertThat(context.getBean(RpcbindServerRegistration.class).registration().mappings()).hasSize(1);

				context.close();

				assertThat(rpcbind.rpcinfo("127.0.0.1")).doesNotContainPattern(row);
			});
	}

}
