package io.rpcrdma.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The project's trace-context optional feature of RPC-over-RDMA Version Two
 * (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1, §3.2): an RDMA_OPTIONAL message of this
 * rdma_opttype is a forward-direction call with empty chunk lists, exactly what RDMA_MSG with
 * three empty lists would be, that also carries the caller's W3C trace context. Its
 * rdma_optinfo is
 *
 * <pre>
 * const RPCRDMA2_OPT_TRACE_CONTEXT = 0x72740001;
 *
 * struct rpcrdma2_trace_context {
 *         opaque rdma_traceparent&lt;128&gt;;   // W3C traceparent, ASCII
 *         opaque rdma_tracestate&lt;512&gt;;    // W3C tracestate, ASCII, may be empty
 * };
 * </pre>
 *
 * and an RPC Payload Stream, the call, MUST follow the Transport Header Stream (§3.2 asks each
 * option to say). The reply is an ordinary RDMA_MSG. A responder that does not know the type
 * answers RDMA_ERR_INVAL_OPTION (§3.1) without executing the call; the requester then sends
 * the same call again as RDMA_MSG and stops offering the feature on that connection.
 * <p>
 * The draft defines no rdma_opttype values, no registry and no range for experiments or
 * private use (§3.1 leaves values to other Standards Track documents; §7 has no IANA
 * considerations). The value is therefore taken far from the small numbers a standard would
 * assign first: 0x72740001, "rt" (rpcrdma trace) and feature 1, to be replaced if a document
 * ever assigns one.
 */
public final class TraceContextOption {

	/** The rdma_opttype of the trace-context feature (see the class comment for the choice). */
	public static final int OPTION_TYPE = 0x72740001;

	private TraceContextOption() {
	}

	/**
	 * @param context the context to carry
	 * @return rdma_optinfo for {@code context}
	 */
	public static byte[] encode(TraceContext context) {
		byte[] parent = context.traceparent().getBytes(StandardCharsets.US_ASCII);
		byte[] state = context.tracestate().getBytes(StandardCharsets.US_ASCII);
		ByteBuffer out = ByteBuffer.allocate(8 + padded(parent.length) + padded(state.length));
		XdrEncoder encoder = new XdrEncoder(out);
		encoder.writeOpaque(parent);
		encoder.writeOpaque(state);
		return out.array();
	}

	/**
	 * Reads rdma_optinfo of this type.
	 * @param optionInfo the bytes, not moved
	 * @return the context
	 * @throws InvalidOptionInfoException if the bytes are not a {@code rpcrdma2_trace_context}
	 * within its bounds, with nothing after it; answered with RDMA_ERR_BAD_HEADER
	 */
	public static TraceContext decode(ByteBuffer optionInfo) {
		XdrDecoder decoder = new XdrDecoder(optionInfo.duplicate());
		try {
			String parent = ascii(decoder.readOpaque(TraceContext.MAX_TRACEPARENT_LENGTH));
			String state = ascii(decoder.readOpaque(TraceContext.MAX_TRACESTATE_LENGTH));
			if (decoder.remaining() != 0) {
				throw new IllegalArgumentException(decoder.remaining() + " bytes follow the tracestate");
			}
			return new TraceContext(parent, state);
		}
		catch (XdrException | IllegalArgumentException ex) {
			throw new InvalidOptionInfoException("RDMA_OPTIONAL trace context (rdma_opttype 0x72740001) is malformed: " + ex.getMessage());
		}
	}

	private static String ascii(ByteBuffer bytes) {
		byte[] copy = new byte[bytes.remaining()];
		bytes.get(copy);
		return new String(copy, StandardCharsets.US_ASCII);
	}

	private static int padded(int length) {
		return (length + 3) & ~3;
	}

}
