package io.rpcrdma.spring.boot.autoconfigure.metrics;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.Conveyance;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServiceDescriptor;

/**
 * A served call's observation context: a {@link ReceiverContext} whose carrier is the trace
 * context the call carried ({@link io.rpcrdma.protocol.TraceContextOption}), read by a
 * tracer's propagator as the {@code traceparent} and {@code tracestate} headers, so that the
 * server's span continues the client's trace. A call that carried none starts a new trace.
 */
public final class RpcRdmaServerCallContext extends ReceiverContext<TraceContext> implements RpcRdmaCallContext {

	private final CallFacts facts;

	RpcRdmaServerCallContext(ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint,
			TraceContext incoming) {
		super(RpcRdmaServerCallContext::header, Kind.SERVER);
		this.facts = new CallFacts(CallSide.SERVER, service, procedure, endpoint);
		setCarrier(incoming);
		setRemoteServiceAddress(endpoint);
	}

	private static String header(TraceContext carrier, String key) {
		if (carrier == null || key == null) {
			return null;
		}
		return switch (key) {
			case "traceparent" -> carrier.traceparent();
			case "tracestate" -> carrier.tracestate().isEmpty() ? null : carrier.tracestate();
			default -> null;
		};
	}

	void ended(CallOutcome outcome, Conveyance conveyance) {
		this.facts.ended(outcome, conveyance);
	}

	@Override
	public CallSide side() {
		return this.facts.side;
	}

	@Override
	public ServiceDescriptor service() {
		return this.facts.service;
	}

	@Override
	public ProcedureDescriptor procedure() {
		return this.facts.procedure;
	}

	@Override
	public String endpoint() {
		return this.facts.endpoint;
	}

	@Override
	public CallOutcome outcome() {
		return this.facts.outcome;
	}

	@Override
	public Conveyance conveyance() {
		return this.facts.conveyance;
	}

}
