package io.rpcrdma.client;

import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Writes a call's arguments, after the RPC call header {@link RpcClient} has encoded.
 */
@FunctionalInterface
public interface CallBody {

	/** No arguments (procedure 0, for example). */
	CallBody NONE = (encoder) -> {
	};

	/**
	 * @param encoder where the arguments go, positioned just after the call header
	 */
	void write(XdrEncoder encoder);

	/**
	 * What the caller calls the procedure, for exception messages (for example
	 * {@code FileStore.read}); the numbers alone by default.
	 * @return the name, or {@code null}
	 */
	default String procedureName() {
		return null;
	}

	/**
	 * The caller's W3C trace context, which the transport offers to a Version Two responder
	 * that supports it ({@link io.rpcrdma.protocol.TraceContextOption}). Asked once the
	 * arguments are written, so an observer started before may have filled it in.
	 * @return the context, or {@code null} (the default: nothing is offered)
	 */
	default TraceContext traceContext() {
		return null;
	}

	/**
	 * The credential the call carries (RFC 5531 §8.2).
	 * @return AUTH_NONE unless the body says otherwise
	 */
	default OpaqueAuth credential() {
		return AuthNone.INSTANCE;
	}

	/**
	 * The verifier of a call whose credential is not AUTH_NONE, given the header it follows:
	 * RPCSEC_GSS makes it a MIC over those bytes (RFC 2203 §5.3.1).
	 * @param header the call header from its xid through the credential, read-only
	 * @return AUTH_NONE unless the flavor says otherwise
	 */
	default OpaqueAuth verifier(java.nio.ByteBuffer header) {
		return AuthNone.INSTANCE;
	}

}
