package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.Conveyance;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServiceDescriptor;

/**
 * A client call's observation context: a {@link SenderContext} whose carrier collects the
 * W3C {@code traceparent} and {@code tracestate} a tracer's propagator injects when the
 * observation starts, which the call then carries to the server
 * ({@link io.rpcrdma.protocol.TraceContextOption}). Without a tracer nothing is injected and
 * nothing is carried.
 */
public final class RpcRdmaClientCallContext extends SenderContext<Map<String, String>> implements RpcRdmaCallContext {

	private final CallFacts facts;

	RpcRdmaClientCallContext(ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint) {
		super((carrier, key, value) -> {
			if (carrier != null && key != null && value != null) {
				carrier.put(key, value);
			}
		}, Kind.CLIENT);
		this.facts = new CallFacts(CallSide.CLIENT, service, procedure, endpoint);
		setCarrier(new HashMap<>(4));
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
		Map<String, String> carrier = getCarrier();
		String parent = (carrier != null) ? carrier.get("traceparent") : null;
		if (parent == null) {
			return null;
		}
		try {
			return new TraceContext(parent, carrier.get("tracestate"));
		}
		catch (IllegalArgumentException ex) {
			// A tracestate beyond what the option carries (or a malformed value): the call goes
			// untraced across the wire rather than failing.
			return null;
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
