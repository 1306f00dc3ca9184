package io.rpcrdma.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The project's trace-context optional feature of RPC-over-RDMA Version Two
 * (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1, §3.2): an RDMA_OPTIONAL message of this
 * rdma_opttype is a forward-direction call, the RDMA2_MSG or RDMA2_NOMSG header it would
 * otherwise have gone with wrapped in rdma_optinfo after the caller's W3C trace context:
 *
 * <pre>
 * const RPCRDMA2_OPT_TRACE_CONTEXT = 0x72740001;
 *
 * struct rpcrdma2_trace_context {
 *         opaque rdma_traceparent&lt;128&gt;;    // W3C traceparent, ASCII
 *         opaque rdma_tracestate&lt;512&gt;;     // W3C tracestate, ASCII, may be empty
 *         rpcrdma2_xprt_hdr rdma_call;       // RDMA_MSG or RDMA_NOMSG, the same rdma_xid
 * };
 * </pre>
 *
 * An RPC Payload Stream follows the Transport Header Stream exactly when it would follow
 * {@code rdma_call} (§3.2 asks each option to say): for RDMA_MSG it MUST, for RDMA_NOMSG it
 * MUST NOT. Wrapping the whole header keeps every chunk list the call has (Read chunks, Write
 * chunks, a Reply chunk, a Long Call) under the one decoder and its limits. The reply is an
 * ordinary RDMA_MSG or RDMA_NOMSG. A responder that does not know the type answers
 * RDMA_ERR_INVAL_OPTION (§3.1) without executing the call; the requester then sends the same
 * call again with its plain header and stops offering the feature on that connection.
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
	 * What a trace-context option carries.
	 * @param context the caller's trace context
	 * @param callHeader the encoded {@code rdma_call}, a read-only view
	 */
	public record TracedCall(TraceContext context, ByteBuffer callHeader) {
	}

	/**
	 * @param context the context to carry
	 * @param call the call's own header, RDMA2_MSG or RDMA2_NOMSG
	 * @return rdma_optinfo for {@code context} and {@code call}
	 */
	public static byte[] encode(TraceContext context, TransportHeader call) {
		if (!(call instanceof Rdma2Msg || call instanceof Rdma2Nomsg)) {
			throw new IllegalArgumentException("Only an RDMA2_MSG or RDMA2_NOMSG call carries a trace context, not " + call);
		}
		byte[] parent = context.traceparent().getBytes(StandardCharsets.US_ASCII);
		byte[] state = context.tracestate().getBytes(StandardCharsets.US_ASCII);
		ByteBuffer out = ByteBuffer
			.allocate(8 + padded(parent.length) + padded(state.length) + TransportHeaderEncoder.encodedLength(call));
		XdrEncoder encoder = new XdrEncoder(out);
		encoder.writeOpaque(parent);
		encoder.writeOpaque(state);
		TransportHeaderEncoder.encode(call, encoder);
		return out.array();
	}

	/**
	 * Reads rdma_optinfo of this type, leaving {@code rdma_call} to the transport header decoder.
	 * @param optionInfo the bytes, not moved
	 * @return the context and the call's header
	 * @throws InvalidOptionInfoException if the trace context is not within its bounds or no
	 * call header follows it; answered with RDMA_ERR_BAD_HEADER
	 */
	public static TracedCall decode(ByteBuffer optionInfo) {
		XdrDecoder decoder = new XdrDecoder(optionInfo.duplicate());
		try {
			String parent = ascii(decoder.readOpaque(TraceContext.MAX_TRACEPARENT_LENGTH));
			String state = ascii(decoder.readOpaque(TraceContext.MAX_TRACESTATE_LENGTH));
			TraceContext context = new TraceContext(parent, state);
			if (decoder.remaining() < RpcRdmaConstants.FIXED_HEADER_LENGTH) {
				throw new IllegalArgumentException("no rdma_call header follows the trace context");
			}
			ByteBuffer rest = decoder.buffer().slice(decoder.buffer().position(), decoder.remaining());
			return new TracedCall(context, rest.asReadOnlyBuffer());
		}
		catch (XdrException | IllegalArgumentException ex) {
			throw new InvalidOptionInfoException(
					"RDMA_OPTIONAL trace context (rdma_opttype 0x72740001) is malformed: " + ex.getMessage());
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
