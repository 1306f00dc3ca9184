package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * A W3C Trace Context (https://www.w3.org/TR/trace-context/) as it crosses the wire with a
 * call: the {@code traceparent} and {@code tracestate} values, carried verbatim and
 * interpreted only by the tracer above (Micrometer Tracing's propagator in the Spring Boot
 * layer). The transport carries it in the {@link TraceContextOption} optional feature of
 * RPC-over-RDMA Version Two; core neither makes nor reads trace ids.
 *
 * @param traceparent the {@code traceparent} header value, 1 to {@value #MAX_TRACEPARENT_LENGTH}
 * printable ASCII characters (55 for version 00)
 * @param tracestate the {@code tracestate} header value, at most {@value #MAX_TRACESTATE_LENGTH}
 * printable ASCII characters, empty for none
 */
public record TraceContext(String traceparent, String tracestate) {

	/**
	 * The longest traceparent carried. Version 00 is 55 characters; later versions may append
	 * fields (W3C Trace Context §3.2.4), so some room is left, but not without bound.
	 */
	public static final int MAX_TRACEPARENT_LENGTH = 128;

	/**
	 * The longest tracestate carried: the 512 characters W3C Trace Context §3.3.1.5 asks every
	 * vendor to propagate, a bound on what a peer can make the receiver hold.
	 */
	public static final int MAX_TRACESTATE_LENGTH = 512;

	/**
	 * Checks both values.
	 * @throws IllegalArgumentException if a value is too long, empty (traceparent) or holds a
	 * character outside printable ASCII, which no W3C header value holds
	 */
	public TraceContext {
		Objects.requireNonNull(traceparent, "traceparent");
		tracestate = (tracestate != null) ? tracestate : "";
		if (traceparent.isEmpty() || traceparent.length() > MAX_TRACEPARENT_LENGTH) {
			throw new IllegalArgumentException("A traceparent holds 1 to " + MAX_TRACEPARENT_LENGTH
					+ " characters, got " + traceparent.length());
		}
		if (tracestate.length() > MAX_TRACESTATE_LENGTH) {
			throw new IllegalArgumentException("A tracestate carried over RPC-over-RDMA holds at most "
					+ MAX_TRACESTATE_LENGTH + " characters (W3C Trace Context §3.3.1.5), got " + tracestate.length());
		}
		requirePrintableAscii("traceparent", traceparent);
		requirePrintableAscii("tracestate", tracestate);
	}

	private static void requirePrintableAscii(String name, String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c > 0x7e) {
				throw new IllegalArgumentException("The " + name + " holds character 0x" + Integer.toHexString(c)
						+ " at index " + i + "; W3C Trace Context values are printable ASCII");
			}
		}
	}

}
