package io.rpcrdma.service;

import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.protocol.TraceContextOption;

/**
 * Watches service calls on either side, for metrics and tracing: {@link #start} when a call
 * begins, {@link Observation#stop} exactly once when it ends. Implementations must be cheap
 * and thread-safe and must not block: they run on the caller's thread, handler threads and
 * the transport's completion threads. The Spring Boot layer adapts this to Micrometer
 * Observation; core depends on nothing.
 */
public interface ServiceCallObserver {

	/** Observes nothing, allocating nothing. */
	ServiceCallObserver NONE = (side, service, procedure, endpoint) -> Observation.NONE;

	/**
	 * A call begins.
	 * @param side client or server
	 * @param service the program version called
	 * @param procedure the procedure called
	 * @param endpoint the server's endpoint (client side) or the client's address (server side)
	 * @return what to stop when the call ends
	 */
	Observation start(CallSide side, ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint);

	/**
	 * A call begins on the server with the requester's trace context, for a tracer to continue
	 * the requester's trace. By default the context is ignored.
	 * @param side {@link CallSide#SERVER}
	 * @param service the program version called
	 * @param procedure the procedure called
	 * @param endpoint the client's address
	 * @param incoming the trace context the call carried, or {@code null} if none
	 * @return what to stop when the call ends
	 */
	default Observation start(CallSide side, ServiceDescriptor service, ProcedureDescriptor procedure, String endpoint,
			TraceContext incoming) {
		return start(side, service, procedure, endpoint);
	}

	/** One call being observed. */
	interface Observation {

		/** Stops nothing. */
		Observation NONE = (outcome, conveyance, failure) -> {
		};

		/**
		 * The call ended.
		 * @param outcome how
		 * @param conveyance how its data travelled
		 * @param failure the exception for outcomes other than {@link CallOutcome#SUCCESS},
		 * else {@code null}
		 */
		void stop(CallOutcome outcome, Conveyance conveyance, Throwable failure);

		/**
		 * The trace context a client call carries to the server, read after {@link #start}
		 * returns and before the call is sent (W3C Trace Context; the transport offers it only
		 * to Version Two servers that support it, {@link TraceContextOption}).
		 * @return the context, or {@code null} (the default) to send none
		 */
		default TraceContext traceContext() {
			return null;
		}

	}

}
