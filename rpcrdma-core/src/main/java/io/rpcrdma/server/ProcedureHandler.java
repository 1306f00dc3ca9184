package io.rpcrdma.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Runs one remote procedure: reads its arguments and writes its results in place.
 * <p>
 * Zero copy: {@code arguments} reads the received message where it lies, and
 * {@code results} writes into the reply buffer the transport supplied, right after the
 * SUCCESS reply header the dispatcher has already written. Neither may be used after the
 * handler has finished.
 * <p>
 * A handler finishes synchronously by returning {@link #DONE} (or {@code null}), or
 * asynchronously by returning a stage that completes once the results have been written; the
 * arguments stay readable until then.
 * <p>
 * Bulk data (RFC 8166 §6): an argument that arrived by Read chunk is read like any other
 * opaque, as a view ({@link XdrDecoder#readOpaque(int)}) of the received message, which lies
 * in registered memory when the transport placed it there. A result written with
 * {@link ServerCall#writeDdpOpaque(XdrEncoder, java.nio.ByteBuffer)} (or marked with
 * {@link ServerCall#markDdpEligible(int, int)}) goes by the requester's Write chunk when one
 * was offered and is large enough; {@link ServerCall#writeChunkCapacities()} tells what was
 * offered.
 * <p>
 * Failures become replies (RFC 5531 §9): {@link GarbageArgumentsException}, or any
 * {@link io.rpcrdma.xdr.XdrException} raised while decoding the arguments, answers
 * GARBAGE_ARGS; every other exception answers SYSTEM_ERR and is logged once by the
 * dispatcher. Whatever the handler wrote before failing is discarded.
 */
@FunctionalInterface
public interface ProcedureHandler {

	/** The completed stage a synchronous handler returns. */
	CompletionStage<Void> DONE = CompletableFuture.completedStage(null);

	/**
	 * Runs the procedure.
	 * @param call the call header (program, version, procedure, credential), what the
	 * requester offered for the reply, and where the handler marks DDP-eligible results
	 * @param arguments positioned at the procedure arguments
	 * @param results positioned where the procedure results go
	 * @return {@link #DONE} or {@code null} when finished, else a stage completing when the
	 * results have been written (exceptionally to fail the call)
	 * @throws Exception to fail the call: see the class description for the reply
	 */
	CompletionStage<Void> handle(ServerCall call, XdrDecoder arguments, XdrEncoder results) throws Exception;

	/**
	 * Adapts a handler that finishes before returning.
	 * @param procedure the synchronous procedure
	 * @return a handler returning {@link #DONE}
	 */
	static ProcedureHandler of(SynchronousProcedure procedure) {
		return (call, arguments, results) -> {
			procedure.handle(call, arguments, results);
			return DONE;
		};
	}

	/**
	 * A procedure that has written its results when it returns.
	 */
	@FunctionalInterface
	interface SynchronousProcedure {

		/**
		 * Runs the procedure.
		 * @param call the call header
		 * @param arguments positioned at the procedure arguments
		 * @param results positioned where the procedure results go
		 * @throws Exception to fail the call
		 */
		void handle(ServerCall call, XdrDecoder arguments, XdrEncoder results) throws Exception;

	}

}
