package io.rpcrdma.service;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.rpcrdma.server.CallRejectedException;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.RequesterAddress;
import io.rpcrdma.server.ServerCall;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrOverflowException;

/**
 * Serves one procedure of an exported service: decodes the arguments (a decoding failure is
 * GARBAGE_ARGS, RFC 5531 §9), calls the implementation through the {@link ServiceInvoker},
 * and writes its {@link ProcedureResults}: the result, or the {@link RemoteFault} of the
 * exception it threw. A result that cannot be encoded (too large for the reply the client
 * made room for, or refused by its codec) becomes a fault too, so the caller learns why
 * instead of waiting for its deadline. {@link Error}s are not faults: they propagate, and the
 * dispatcher answers SYSTEM_ERR and logs them.
 */
final class ServiceProcedureHandler implements ProcedureHandler {

	private static final System.Logger logger = System.getLogger(ServiceProcedureHandler.class.getName());

	private final ServiceInvoker invoker;

	private final ProcedureDescriptor procedure;

	private final ServiceCallObserver observer;

	private final String qualifiedName;

	private final List<RpcServerInterceptor> interceptors;

	ServiceProcedureHandler(ServiceInvoker invoker, ProcedureDescriptor procedure, ServiceCallObserver observer,
			List<RpcServerInterceptor> interceptors) {
		this.invoker = invoker;
		this.procedure = procedure;
		this.observer = observer;
		this.interceptors = interceptors;
		this.qualifiedName = invoker.service().name() + "." + procedure.name();
	}

	@Override
	public CompletionStage<Void> handle(ServerCall call, XdrDecoder arguments, XdrEncoder results) {
		ServerCall previous = RpcCallContext.enter(call);
		try {
			return handleCurrent(call, arguments, results);
		}
		finally {
			RpcCallContext.restore(previous);
		}
	}

	private CompletionStage<Void> handleCurrent(ServerCall call, XdrDecoder arguments, XdrEncoder results) {
		ServiceCallObserver.Observation observation = (this.observer == ServiceCallObserver.NONE)
				? ServiceCallObserver.Observation.NONE
				: this.observer.start(CallSide.SERVER, this.invoker.service(), this.procedure, caller(call),
						(call != null) ? call.traceContext() : null);
		Object[] values;
		try {
			values = this.procedure.decodeArguments(arguments);
		}
		catch (RuntimeException ex) {
			observation.stop(CallOutcome.ERROR, arrival(call), ex);
			throw ex;
		}
		if (!this.interceptors.isEmpty()) {
			return intercepted(call, values, results, observation);
		}
		if (!this.procedure.returnsFuture()) {
			// A method returning its result itself: called without a future around the result.
			java.lang.invoke.MethodHandle method = this.invoker.handle(this.procedure, values);
			Object value;
			try {
				value = method.invoke(values);
			}
			catch (Throwable ex) {
				complete(call, null, ex, results, observation);
				return DONE;
			}
			complete(call, value, null, results, observation);
			return DONE;
		}
		CompletableFuture<Object> result = this.invoker.invoke(this.procedure, values);
		if (result.isDone()) {
			complete(call, result, results, observation);
			return DONE;
		}
		return result.handle((value, error) -> {
			complete(call, result, results, observation);
			return null;
		});
	}

	/**
	 * The call through the exporter's interceptors. A {@link CallRejectedException} leaves the
	 * handler, so the dispatcher answers AUTH_ERROR; anything else an interceptor or the method
	 * throws travels back as the method's fault.
	 */
	@SuppressWarnings("unchecked")
	private CompletionStage<Void> intercepted(ServerCall call, Object[] values, XdrEncoder results,
			ServiceCallObserver.Observation observation) {
		Object value;
		try {
			value = new ServerInterceptorChain(this.interceptors, this.invoker, this.procedure, call, values, caller(call))
				.proceed();
		}
		catch (CallRejectedException ex) {
			observation.stop(CallOutcome.ERROR, arrival(call), ex);
			throw ex;
		}
		catch (Throwable ex) {
			complete(call, null, ex, results, observation);
			return DONE;
		}
		if (!this.procedure.returnsFuture()) {
			complete(call, value, null, results, observation);
			return DONE;
		}
		CompletableFuture<Object> result = (value instanceof CompletableFuture<?> future) ? (CompletableFuture<Object>) future
				: CompletableFuture.completedFuture(value);
		if (result.isDone()) {
			complete(call, result, results, observation);
			return DONE;
		}
		return result.handle((ignored, error) -> {
			complete(call, result, results, observation);
			return null;
		});
	}

	/**
	 * Marks a {@link Bulk} result DDP-eligible, so the transport places it in the Write chunk
	 * the client offered for it (RFC 8166 §3.4.6).
	 * @param position where the result's XDR begins: its length word
	 * @return the conveyance chosen for the result
	 */
	private Conveyance markBulkResult(ServerCall call, Object value, int position) {
		if (call == null) {
			return Conveyance.INLINE;
		}
		boolean read = call.offer().readChunks() > 0;
		boolean write = false;
		int length = this.procedure.resultBulk().bulk() ? BulkValues.length(value) : -1;
		if (length >= 0) {
			call.markDdpEligible(position + 4, length);
			write = !call.writeChunkCapacities().isEmpty();
		}
		return Conveyance.of(read, write);
	}

	/**
	 * Writes a {@link Bulk} result whose data the requester's Write chunk will carry, leaving
	 * the data where the method returned it: the transport copies it once, into registered
	 * memory, where the general path copied it into the reply buffer first (RFC 8166 §3.4.6);
	 * a {@link BulkData#of registered} result is written from its buffer, not copied at all.
	 * @return {@code false}, having written nothing, when the result goes the general way: not
	 * bulk, over its bound (the codec then says so), or no Write chunk takes it
	 */
	private boolean encodedByReference(ServerCall call, Object value, XdrEncoder results) {
		if (call == null || !this.procedure.resultBulk().bulk()) {
			return false;
		}
		int length = BulkValues.length(value);
		if (length < 0 || length > this.procedure.resultBulk().maxBytes() || !call.acceptsDdpByReference(length)) {
			return false;
		}
		results.writeInt(ProcedureResults.RESULT);
		if (value instanceof BulkData data && data.registered() != null) {
			// Already in registered memory (BulkData.of): written from there, not copied.
			call.writeDdpOpaqueByReference(results, data.registered(), length);
		}
		else {
			call.writeDdpOpaqueByReference(results, BulkValues.view(value));
		}
		return true;
	}

	/** The caller's address for the observer; formatted only when someone observes. */
	private static String caller(ServerCall call) {
		Object client = (call != null) ? call.client() : null;
		if (client instanceof RequesterAddress requester) {
			// The host alone, as before ports were part of the key: observers tag calls by client.
			return requester.hostString();
		}
		if (client instanceof java.net.InetAddress address) {
			return address.getHostAddress();
		}
		return (client != null) ? client.toString() : null;
	}

	private static Conveyance arrival(ServerCall call) {
		return (call != null && call.offer().readChunks() > 0) ? Conveyance.READ_CHUNK : Conveyance.INLINE;
	}

	private void complete(ServerCall call, CompletableFuture<Object> result, XdrEncoder results,
			ServiceCallObserver.Observation observation) {
		Object value = null;
		Throwable failure = null;
		try {
			value = result.join();
		}
		catch (CompletionException | java.util.concurrent.CancellationException ex) {
			failure = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
		}
		complete(call, value, failure, results, observation);
	}

	/** Encodes the result, or the fault for what the method threw. */
	private void complete(ServerCall call, Object value, Throwable thrownByMethod, XdrEncoder results,
			ServiceCallObserver.Observation observation) {
		Throwable failure = thrownByMethod;
		if (failure == null && encodedByReference(call, value, results)) {
			observation.stop(CallOutcome.SUCCESS, Conveyance.of(call.offer().readChunks() > 0, true), null);
			return;
		}
		if (failure == null) {
			int start = results.position();
			try {
				ProcedureResults.encodeResult(this.procedure, value, results);
				observation.stop(CallOutcome.SUCCESS, markBulkResult(call, value, start + 4), null);
				return;
			}
			catch (XdrOverflowException ex) {
				results.buffer().position(start);
				failure = new ResultTooLargeException("The result of " + this.qualifiedName + " does not fit in the "
						+ results.buffer().limit() + "-byte reply the caller made room for (" + ex.getMessage()
						+ "); " + ResultTooLargeException.REMEDY);
			}
			catch (RuntimeException ex) {
				results.buffer().position(start);
				failure = ex;
			}
		}
		if (failure instanceof Error error) {
			observation.stop(CallOutcome.ERROR, arrival(call), error);
			throw error;
		}
		RemoteFault fault = RemoteFault.of(failure).fitting(results.remaining() - 4);
		Throwable thrown = failure;
		logger.log(Level.DEBUG, () -> this.qualifiedName + " threw " + thrown + "; it travels back as a fault");
		ProcedureResults.encodeFault(fault, results);
		observation.stop(CallOutcome.FAULT, arrival(call), failure);
	}

}
