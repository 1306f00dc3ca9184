package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;

import io.micrometer.observation.Observation;
import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.Conveyance;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServiceDescriptor;

/**
 * One service call as Micrometer Observation sees it: who called what, and once it ended, how
 * it ended and how its data travelled.
 */
public final class RpcRdmaCallContext extends Observation.Context {

	private final CallSide side;

	private final ServiceDescriptor service;

	private final ProcedureDescriptor procedure;

	private final String endpoint;

	private volatile CallOutcome outcome;

	private volatile Conveyance conveyance;

	RpcRdmaCallContext(CallSide side, ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint) {
		this.side = Objects.requireNonNull(side, "side");
		this.service = Objects.requireNonNull(service, "service");
		this.procedure = Objects.requireNonNull(procedure, "procedure");
		this.endpoint = endpoint;
	}

	void ended(CallOutcome outcome, Conveyance conveyance) {
		this.outcome = outcome;
		this.conveyance = conveyance;
	}

	/** @return client or server */
	public CallSide side() {
		return this.side;
	}

	/** @return the program version called */
	public ServiceDescriptor service() {
		return this.service;
	}

	/** @return the procedure called */
	public ProcedureDescriptor procedure() {
		return this.procedure;
	}

	/**
	 * @return the server's endpoint (client side) or the client's address (server side), may be
	 * {@code null}
	 */
	public String endpoint() {
		return this.endpoint;
	}

	/** @return how the call ended, {@code null} while it runs */
	public CallOutcome outcome() {
		return this.outcome;
	}

	/** @return how the call's data travelled, {@code null} while it runs */
	public Conveyance conveyance() {
		return this.conveyance;
	}

}
