package io.rpcrdma.spring.boot.autoconfigure.metrics;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.Conveyance;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServiceDescriptor;

/**
 * A client call's observation context: a {@link SenderContext} that is its own carrier,
 * collecting the W3C {@code traceparent} and {@code tracestate} a tracer's propagator injects
 * when the observation starts, which the call then carries to the server
 * ({@link io.rpcrdma.protocol.TraceContextOption}). Without a tracer nothing is injected and
 * nothing is carried; being its own carrier, the context allocates nothing more for it.
 */
public final class RpcRdmaClientCallContext extends SenderContext<RpcRdmaClientCallContext>
		implements RpcRdmaCallContext {

	private final CallFacts facts;

	private volatile String traceparent;

	private volatile String tracestate;

	RpcRdmaClientCallContext(ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint) {
		super(RpcRdmaClientCallContext::header, Kind.CLIENT);
		this.facts = new CallFacts(CallSide.CLIENT, service, procedure, endpoint);
		setCarrier(this);
		setRemoteServiceName(service.name());
		Endpoints.HostPort server = Endpoints.parse(endpoint);
		if (server != null) {
			setRemoteServiceAddress(server.host() + ":" + server.port());
		}
	}

	/**
	 * The W3C trace context a propagator injected, for the call to carry.
	 * @return the context, or {@code null} if no tracer injected a valid {@code traceparent}
	 */
	public TraceContext traceContext() {
		String parent = this.traceparent;
		if (parent == null) {
			return null;
		}
		try {
			return new TraceContext(parent, this.tracestate);
		}
		catch (IllegalArgumentException ex) {
			// A tracestate beyond what the option carries (or a malformed value): the call goes
			// untraced across the wire rather than failing.
			return null;
		}
	}

	/** The propagator's setter: keeps the two headers the wire carries, ignores others (baggage, B3). */
	private static void header(RpcRdmaClientCallContext carrier, String key, String value) {
		if (carrier == null || key == null) {
			return;
		}
		switch (key) {
			case "traceparent" -> carrier.traceparent = value;
			case "tracestate" -> carrier.tracestate = value;
			default -> {
			}
		}
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
