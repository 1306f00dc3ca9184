package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.Conveyance;
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
		return start(side, service, procedure, endpoint, null);
	}

	/**
	 * Starts the call's observation. On the client the context is a {@link SenderContext} a
	 * tracer injects the trace context into, which the call then carries; on the server a
	 * {@link ReceiverContext} holding what the call carried, which a tracer continues.
	 */
	@Override
	public Observation start(CallSide side, ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint,
			TraceContext incoming) {
		boolean newEndpoint = side == CallSide.CLIENT && endpoint != null && !this.clientEndpoints.contains(endpoint);
		if (this.registry.isNoop()) {
			return newEndpoint ? (outcome, conveyance, failure) -> ended(endpoint) : Observation.NONE;
		}
		if (side == CallSide.CLIENT) {
			RpcRdmaClientCallContext context = new RpcRdmaClientCallContext(service, procedure, endpoint);
			io.micrometer.observation.Observation observation = started(side, context);
			// Read once, after start: the tracer injected what it will inject by then.
			TraceContext outgoing = context.traceContext();
			return new Observed(observation, outgoing, newEndpoint ? endpoint : null) {

				@Override
				void ended(CallOutcome outcome, Conveyance conveyance) {
					context.ended(outcome, conveyance);
				}

			};
		}
		RpcRdmaServerCallContext context = new RpcRdmaServerCallContext(service, procedure, endpoint, incoming);
		return new Observed(started(side, context), null, null) {

			@Override
			void ended(CallOutcome outcome, Conveyance conveyance) {
				context.ended(outcome, conveyance);
			}

		};
	}

	private io.micrometer.observation.Observation started(CallSide side, io.micrometer.observation.Observation.Context context) {
		// The interface's own Observation type shadows Micrometer's here.
		return io.micrometer.observation.Observation
			.createNotStarted(null, DefaultRpcRdmaCallObservationConvention.of(side), () -> context, this.registry)
			.start();
	}

	/** A running call's observation: stopped once, with what the call carries to the server. */
	private abstract class Observed implements Observation {

		private final io.micrometer.observation.Observation observation;

		private final TraceContext outgoing;

		private final String newEndpoint;

		Observed(io.micrometer.observation.Observation observation, TraceContext outgoing, String newEndpoint) {
			this.observation = observation;
			this.outgoing = outgoing;
			this.newEndpoint = newEndpoint;
		}

		abstract void ended(CallOutcome outcome, Conveyance conveyance);

		@Override
		public void stop(CallOutcome outcome, Conveyance conveyance, Throwable failure) {
			ended(outcome, conveyance);
			if (failure != null) {
				this.observation.error(failure);
			}
			this.observation.stop();
			if (this.newEndpoint != null) {
				ObservationServiceCallObserver.this.ended(this.newEndpoint);
			}
		}

		@Override
		public TraceContext traceContext() {
			return this.outgoing;
		}

	}

	/** A call to an endpoint not seen before ended: its pool exists now. */
	private void ended(String endpoint) {
		if (this.clientEndpoints.size() < MAX_ENDPOINTS && this.clientEndpoints.add(endpoint)) {
			this.newClientEndpoint.run();
		}
	}

}
