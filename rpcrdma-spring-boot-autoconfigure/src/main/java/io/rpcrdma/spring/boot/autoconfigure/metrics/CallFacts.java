package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;

import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.Conveyance;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServiceDescriptor;

/** What both sides' contexts know of a call, held once for either. */
final class CallFacts {

	final CallSide side;

	final ServiceDescriptor service;

	final ProcedureDescriptor procedure;

	final String endpoint;

	volatile CallOutcome outcome;

	volatile Conveyance conveyance;

	CallFacts(CallSide side, ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint) {
		this.side = Objects.requireNonNull(side, "side");
		this.service = Objects.requireNonNull(service, "service");
		this.procedure = Objects.requireNonNull(procedure, "procedure");
		this.endpoint = endpoint;
	}

	void ended(CallOutcome outcome, Conveyance conveyance) {
		this.outcome = outcome;
		this.conveyance = conveyance;
	}

}
