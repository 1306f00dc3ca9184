package io.rpcrdma.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.sample.GreeterService;


/**
 * What registrations (rpcbind, Spring Cloud) rely on: a listener is told once the server
 * listens with its services exported, and told it stops while the server still accepts calls,
 * so that it can withdraw the server from a registry before clients are refused.
 */
class RpcServerLifecycleListenerOrderTest {

	@Test
	void stoppingIsToldWhileTheServerStillAcceptsCalls() {
		Recording listener = new Recording();
		RpcRdmaAutoConfigurations.runner("lifecycle-listener-order")
			.withUserConfiguration(GreeterService.class)
			.withBean(Recording.class, () -> listener)
			.run((context) -> assertThat(listener.events).containsExactly("started listening with 1 service"));

		assertThat(listener.events).containsExactly("started listening with 1 service", "stopping while accepting");
	}

	static final class Recording implements RpcServerLifecycleListener {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void started(RpcServer server, List<ExportedService> services) {
			this.events.add("started " + ((server.localAddress().getPort() > 0) ? "listening" : "not listening") + " with "
					+ services.size() + " service" + ((services.size() == 1) ? "" : "s"));
		}

		@Override
		public void stopping(RpcServer server) {
			this.events.add("stopping " + (server.dispatcher().inFlight().isAccepting() ? "while accepting" : "too late"));
		}

	}

}
