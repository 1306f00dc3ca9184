package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.observation.ObservationRegistry;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServiceCallObserver;
import io.rpcrdma.service.ServiceDescriptor;

/**
 * Reports service calls as Micrometer Observations, so whatever handlers the registry has see
 * them: timers {@code rpcrdma.server.calls} and {@code rpcrdma.client.calls} with the default
 * meter handler, spans with a tracing handler. A call that fails carries its exception as the
 * observation's error. Observations are started without opening a scope because a call ends
 * on another thread (a completion or handler thread) than the one that began it.
 */
public final class ObservationServiceCallObserver implements ServiceCallObserver {

	/** More endpoints than any application configures: past it, new ones are not reported. */
	private static final int MAX_ENDPOINTS = 1024;

	private final ObservationRegistry registry;

	private final Runnable newClientEndpoint;

	private final Set<String> clientEndpoints = ConcurrentHashMap.newKeySet();

	/**
	 * @param registry where observations go
	 */
	public ObservationServiceCallObserver(ObservationRegistry registry) {
		this(registry, () -> {
		});
	}

	/**
	 * @param registry where observations go
	 * @param newClientEndpoint told when a client call to an endpoint not seen before has ended
	 * (its pool exists by then), so meters of clients created on their first call can be bound
	 */
	public ObservationServiceCallObserver(ObservationRegistry registry, Runnable newClientEndpoint) {
		this.registry = Objects.requireNonNull(registry, "registry");
		this.newClientEndpoint = Objects.requireNonNull(newClientEndpoint, "newClientEndpoint");
	}

	@Override
	public Observation start(CallSide side, ServiceDescriptor service, ProcedureDescriptor procedure,
			String endpoint) {
		boolean newEndpoint = side == CallSide.CLIENT && endpoint != null && !this.clientEndpoints.contains(endpoint);
		if (this.registry.isNoop()) {
			return newEndpoint ? (outcome, conveyance, failure) -> ended(endpoint) : Observation.NONE;
		}
		RpcRdmaCallContext context = new RpcRdmaCallContext(side, service, procedure, endpoint);
		// The interface's own Observation type shadows Micrometer's here.
		io.micrometer.observation.Observation observation = io.micrometer.observation.Observation
			.createNotStarted(null, DefaultRpcRdmaCallObservationConvention.of(side), () -> context, this.registry)
			.start();
		return (outcome, conveyance, failure) -> {
			context.ended(outcome, conveyance);
			if (failure != null) {
				observation.error(failure);
			}
			observation.stop();
			if (newEndpoint) {
				ended(endpoint);
			}
		};
	}

	/** A call to an endpoint not seen before ended: its pool exists now. */
	private void ended(String endpoint) {
		if (this.clientEndpoints.size() < MAX_ENDPOINTS && this.clientEndpoints.add(endpoint)) {
			this.newClientEndpoint.run();
		}
	}

}
