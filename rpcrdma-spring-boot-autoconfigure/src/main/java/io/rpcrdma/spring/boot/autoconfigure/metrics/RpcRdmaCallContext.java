package io.rpcrdma.spring.boot.autoconfigure.metrics;

import io.rpcrdma.service.CallOutcome;
import io.rpcrdma.service.CallSide;
import io.rpcrdma.service.Conveyance;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServiceDescriptor;

/**
 * One service call as Micrometer Observation sees it: who called what, and once it ended, how
 * it ended and how its data travelled. The client's context is a Micrometer
 * {@code SenderContext} ({@link RpcRdmaClientCallContext}), into which a tracer injects the
 * trace context the call carries; the server's a {@code ReceiverContext}
 * ({@link RpcRdmaServerCallContext}), from which a tracer extracts it, so both spans of a call
 * join in one trace, as Micrometer's request-reply contexts do for HTTP.
 */
public sealed interface RpcRdmaCallContext permits RpcRdmaClientCallContext, RpcRdmaServerCallContext {

	/** @return client or server */
	CallSide side();

	/** @return the program version called */
	ServiceDescriptor service();

	/** @return the procedure called */
	ProcedureDescriptor procedure();

	/**
	 * @return the server's endpoint (client side) or the client's address (server side), may be
	 * {@code null}
	 */
	String endpoint();

	/** @return how the call ended, {@code null} while it runs */
	CallOutcome outcome();

	/** @return how the call's data travelled, {@code null} while it runs */
	Conveyance conveyance();

}
