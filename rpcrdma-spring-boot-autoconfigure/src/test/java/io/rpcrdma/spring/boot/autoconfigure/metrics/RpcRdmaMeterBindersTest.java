package io.rpcrdma.spring.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.time.Duration;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.spring.boot.autoconfigure.fixture.Greeter;
import io.rpcrdma.spring.boot.autoconfigure.fixture.LoopbackRpcRdma;

class RpcRdmaMeterBindersTest {

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	/** Closed after each test by JUnit (a test that never started one leaves it {@code null}). */
	@AutoClose
	private LoopbackRpcRdma rpc;

	@Test
	void memoryGaugesAddUpToWhatIsRegistered() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		new RpcRdmaMemoryMetrics(this.rpc).bindTo(this.meters);
		assertThat(this.rpc.greeter("greeter").greet("memory")).isEqualTo("Hello, memory");

		double registered = gauge("rpcrdma.memory.registered");
		assertThat(registered).isPositive();
		assertThat(gauge("rpcrdma.memory.leased")).as("both connections' posted receives").isPositive();
		// The server's reply buffer goes back when its Send completes, which may be after the
		// client has the reply, and leased and free are read one after the other: wait for the
		// pool to settle, not for a fixed time.
		await().atMost(LoopbackRpcRdma.DEADLINE)
			.until(() -> gauge("rpcrdma.memory.leased") + gauge("rpcrdma.memory.free") == registered);
		assertThat(gauge("rpcrdma.memory.max")).isGreaterThanOrEqualTo(registered);
		assertThat(this.meters.get("rpcrdma.memory.lease.waits").functionCounter().count()).isZero();
		assertThat(this.meters.get("rpcrdma.memory.registered").gauge().getId().getBaseUnit()).isEqualTo("bytes");
	}

	@Test
	void serverMetersFollowConnectionsCreditsAndTraffic() throws Exception {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		new RpcRdmaServerMetrics(this.rpc).bindTo(this.meters);
		Greeter greeter = this.rpc.greeter("greeter");
		assertThat(greeter.greet("x")).isEqualTo("Hello, x");
		assertThat(greeter.greet("y")).isEqualTo("Hello, y");
		// The server finishes its accounting after handing the reply over, which may be after
		// the client has it: wait for that, not for a fixed time.
		await().atMost(LoopbackRpcRdma.DEADLINE)
			.until(() -> this.rpc.server().orElseThrow().dispatcher().inFlight().inFlight() == 0
					&& gauge("rpcrdma.server.credits.in-use") == 0);

		assertThat(gauge("rpcrdma.server.connections")).isEqualTo(1);
		assertThat(this.meters.get("rpcrdma.server.connections.refused").functionCounter().count())
			.as("the greeter's connection was accepted")
			.isZero();
		assertThat(this.meters.get("rpcrdma.server.connections.capped").functionCounter().count()).isZero();
		assertThat(gauge("rpcrdma.server.credits.granted")).as("the default grant").isEqualTo(32);
		assertThat(gauge("rpcrdma.server.credits.in-use")).isZero();
		assertThat(gauge("rpcrdma.server.calls.in-flight")).isZero();
		assertThat(counter("rpcrdma.server.transport.messages", "type", "inline")).as("two replies").isEqualTo(2);
		assertThat(counter("rpcrdma.server.transport.bytes", "operation", "send")).isPositive();
		assertThat(counter("rpcrdma.server.transport.bytes", "operation", "rdma-read")).isZero();
		assertThat(counter("rpcrdma.server.transport.waits", "for", "ord")).as("no Reads waited").isZero();
		assertThat(counter("rpcrdma.server.transport.waits", "for", "send-queue")).as("two small replies fit").isZero();
		assertThat(this.meters.get("rpcrdma.server.transport.rdma-errors").functionCounters()).as("4 codes, 2 directions")
			.hasSize(8)
			.allSatisfy((errors) -> assertThat(errors.count()).isZero());
		assertThat(this.meters.get("rpcrdma.server.transport.rdma-errors")
			.tags("direction", "received", "code", "err-chunk")
			.functionCounter()
			.count()).isZero();
		assertThat(this.meters.get("rpcrdma.server.refused").tag("reason", "garbage-args").functionCounter().count())
			.isZero();
		assertThat(this.meters.get("rpcrdma.server.drc.hits").functionCounter().count()).isZero();
		assertThat(this.meters.get("rpcrdma.server.calls.deferred").functionCounter().count())
			.as("calls that waited for their connection's share of the executor")
			.isZero();

		this.rpc.stopServer();
		assertThat(gauge("rpcrdma.server.connections")).as("no server, nothing to count").isZero();
		assertThat(counter("rpcrdma.server.transport.messages", "type", "inline")).isZero();
	}

	/**
	 * Micrometer holds a meter's object weakly: binders bound and dropped, as
	 * {@code new RpcRdmaServerMetrics(runtime).bindTo(registry)} leaves them, must not leave
	 * gauges reading NaN and counters frozen after a collection (the await above once timed
	 * out in CI on a NaN credits gauge).
	 */
	@Test
	void metersStillReadAfterTheirUnreferencedBindersMeetACollection() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		Greeter greeter = this.rpc.greeter("greeter");
		new RpcRdmaServerMetrics(this.rpc).bindTo(this.meters);
		new RpcRdmaClientMetrics(this.rpc).bindTo(this.meters);
		collectGarbage();
		assertThat(greeter.greet("x")).isEqualTo("Hello, x");

		assertThat(gauge("rpcrdma.server.connections")).isEqualTo(1);
		assertThat(counter("rpcrdma.server.transport.messages", "type", "inline")).as("one reply").isEqualTo(1);
		assertThat(this.meters.get("rpcrdma.client.connections").tag("client", "greeter").gauge().value()).isEqualTo(1);
		assertThat(this.meters.get("rpcrdma.client.transport.messages")
			.tags("client", "greeter", "type", "inline")
			.functionCounter()
			.count()).as("one call").isEqualTo(1);
	}

	/** Runs the collector until a weakly held object is gone: weak references were cleared. */
	private static void collectGarbage() {
		WeakReference<Object> sentinel = new WeakReference<>(new Object());
		for (int i = 0; i < 50 && sentinel.get() != null; i++) {
			System.gc();
		}
		assertThat(sentinel.get()).as("a collection cleared weak references").isNull();
	}

	@Test
	void clientMetersAreTaggedWithTheClientNameAndBoundForClientsCreatedLater() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		RpcRdmaClientMetrics binder = new RpcRdmaClientMetrics(this.rpc);
		binder.bindTo(this.meters);
		assertThat(this.meters.find("rpcrdma.client.connections").gauges()).as("no client yet").isEmpty();

		Greeter greeter = this.rpc.greeter("greeter");
		assertThat(greeter.greet("x")).isEqualTo("Hello, x");
		binder.bindNewClients();

		assertThat(this.meters.get("rpcrdma.client.connections").tag("client", "greeter").gauge().value()).isEqualTo(1);
		assertThat(this.meters.get("rpcrdma.client.credits.granted").tag("client", "greeter").gauge().value())
			.as("the server's grant, learnt from the first reply").isEqualTo(32);
		assertThat(this.meters.get("rpcrdma.client.credits.in-use").tag("client", "greeter").gauge().value()).isZero();
		assertThat(this.meters.get("rpcrdma.client.credits.waiting").tag("client", "greeter").gauge().value()).isZero();
		assertThat(this.meters.get("rpcrdma.client.retries").tag("client", "greeter").functionCounter().count()).isZero();
		assertThat(this.meters.get("rpcrdma.client.transport.messages")
			.tags("client", "greeter", "type", "inline")
			.functionCounter()
			.count()).isEqualTo(1);
		assertThat(this.meters.get("rpcrdma.client.transport.bytes")
			.tags("client", "greeter", "operation", "send")
			.functionCounter()
			.count()).isPositive();
	}

	@Test
	void instanceGaugesCountEachClientsServersByStateNotByAddress() {
		this.rpc = new LoopbackRpcRdma(ServiceCallObserver.NONE, true).startServer();
		InetSocketAddress server = this.rpc.server().orElseThrow().localAddress();
		Greeter greeter = this.rpc.balanced("pair", 1, Duration.ofMillis(300), server,
				InetSocketAddress.createUnresolved("nobody-listens-here", 0));
		RpcRdmaClientMetrics binder = new RpcRdmaClientMetrics(this.rpc);
		binder.bindTo(this.meters);
		this.rpc.callUntil(greeter, "pair", "nobody-listens-here:0", InstanceState.EJECTED);
		binder.bindNewClients();

		assertThat(instances("up")).isEqualTo(1);
		assertThat(instances("ejected")).isEqualTo(1);
		assertThat(instances("probing")).isZero();
		assertThat(instances("draining")).isZero();
		assertThat(this.meters.find("rpcrdma.client.instances").gauges()).as("one per state, whatever the servers")
			.hasSize(4)
			.allSatisfy((gauge) -> assertThat(gauge.getId().getTags()).extracting("key")
				.containsExactlyInAnyOrder("client", "state"));
	}

	private double instances(String state) {
		Gauge gauge = this.meters.get("rpcrdma.client.instances").tags("client", "pair", "state", state).gauge();
		return gauge.value();
	}

	private double gauge(String name) {
		return this.meters.get(name).gauge().value();
	}

	private double counter(String name, String key, String value) {
		return this.meters.get(name).tag(key, value).functionCounter().count();
	}

}
