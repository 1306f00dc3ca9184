package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;

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

	private final ObservationRegistry registry;

	/**
	 * @param registry where observations go
	 */
	public ObservationServiceCallObserver(ObservationRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "registry");
	}

	@Override
	public Observation start(CallSide side, ServiceDescriptor service, ProcedureDescriptor procedure,
			String endpoint) {
		if (this.registry.isNoop()) {
			return Observation.NONE;
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
		};
	}

}
