package io.rpcrdma.service;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.rpcrdma.client.CallShape;
import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.MalformedReplyException;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RemoteCall;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.xdr.XdrException;

/**
 * Calls one procedure of a service through an {@link RpcCaller}: encodes the arguments, sizes
 * the call and the room for the reply, decodes the {@link ProcedureResults}, and turns a
 * {@link RemoteFault} back into an exception. Built once per method when a proxy is created.
 */
final class ProcedureCaller {

	private final ServiceDescriptor service;

	private final ProcedureDescriptor procedure;

	private final RpcCaller caller;

	private final ServiceClientOptions options;

	private final ServiceCallObserver observer;

	private final FaultTranslator faults;

	private final String name;

	/** The room made for the reply: the RPC reply header, the union's status and the result. */
	private final int maxReplySize;

	ProcedureCaller(ServiceDescriptor service, ProcedureDescriptor procedure, RpcCaller caller,
			ServiceClientOptions options, ServiceCallObserver observer, FaultTranslator faults) {
		this.service = service;
		this.procedure = procedure;
		this.caller = caller;
		this.options = options;
		this.observer = observer;
		this.faults = faults;
		this.name = service.name() + "." + procedure.name();
		long bound = ResultSizes.maxEncodedSize(procedure.resultCodec());
		// RFC 5531 §9 accepted reply with an AUTH_NONE verifier: xid, mtype, reply_stat,
		// verifier (flavor, length), accept_stat; then the union's status word.
		int header = 6 * 4 + 4;
		this.maxReplySize = (bound == ResultSizes.UNBOUNDED) ? options.maxReplySize()
				: (int) Math.min(options.maxReplySize(), header + bound);
	}

	/**
	 * Calls the procedure.
	 * @param arguments one value per parameter ({@code null} for none)
	 * @return completes with the method's result, or fails with the rethrown fault or an
	 * {@link io.rpcrdma.client.RpcCallException}
	 */
	CompletableFuture<Object> call(Object[] arguments) {
		Object[] values = (arguments != null) ? arguments : new Object[0];
		ServiceCallObserver.Observation observation = this.observer.start(CallSide.CLIENT, this.service, this.procedure,
				this.caller.endpoint());
		CallShape shape;
		try {
			shape = CallShape.of(RpcClient.MAX_CALL_HEADER_SIZE + this.procedure.argumentsSize(values), this.maxReplySize);
		}
		catch (RuntimeException ex) {
			observation.stop(CallOutcome.ERROR, Conveyance.INLINE, ex);
			return CompletableFuture.failedFuture(new IllegalArgumentException(
					"Cannot encode the arguments of " + this.name + ": " + ex.getMessage(), ex));
		}
		return this.caller
			.call(this.service.program(), this.service.version(), this.procedure.number(),
					new ServiceCallBody(this.procedure, values, this.name), shape, this.procedure.idempotent(),
					this.options.timeout())
			.handle((reply, error) -> {
				if (error != null) {
					Throwable cause = unwrap(error);
					observation.stop(outcomeOf(cause), Conveyance.INLINE, cause);
					throw (cause instanceof CompletionException completion) ? completion : new CompletionException(cause);
				}
				return decode(reply, observation);
			});
	}

	private Object decode(ReceivedReply reply, ServiceCallObserver.Observation observation) {
		ProcedureResults.Outcome outcome;
		try {
			outcome = ProcedureResults.decode(this.procedure, reply.results());
		}
		catch (XdrException | IllegalArgumentException ex) {
			MalformedReplyException malformed = new MalformedReplyException(new RemoteCall(this.caller.endpoint(),
					reply.header().xid(), this.service.program(), this.service.version(), this.procedure.number(), this.name),
					ex);
			observation.stop(CallOutcome.ERROR, Conveyance.INLINE, malformed);
			throw new CompletionException(malformed);
		}
		finally {
			reply.release();
		}
		if (outcome instanceof ProcedureResults.Outcome.Faulted faulted) {
			Throwable rethrown = this.faults.translate(faulted.fault(), this.procedure.method(),
					this.name + " at " + this.caller.endpoint());
			observation.stop(CallOutcome.FAULT, Conveyance.INLINE, rethrown);
			throw new CompletionException(rethrown);
		}
		observation.stop(CallOutcome.SUCCESS, Conveyance.INLINE, null);
		return ((ProcedureResults.Outcome.Returned) outcome).value();
	}

	private static Throwable unwrap(Throwable error) {
		Throwable cause = error;
		while ((cause instanceof CompletionException) && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	private static CallOutcome outcomeOf(Throwable failure) {
		if (failure instanceof CallTimeoutException) {
			return CallOutcome.TIMEOUT;
		}
		if (failure instanceof ConnectionLostException) {
			return CallOutcome.CONNECTION_LOST;
		}
		return CallOutcome.ERROR;
	}

	/** @return the procedure called */
	ProcedureDescriptor procedure() {
		return this.procedure;
	}

	/** @return "Service.method", as exceptions name it */
	String name() {
		return this.name;
	}

}
