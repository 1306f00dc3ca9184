package io.rpcrdma.client.security;

import java.nio.ByteBuffer;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.xdr.XdrEncoder;

/** RFC 2203 §5.2.2: a context-creation call: the GSS token is the NULL procedure's argument. */
record GssInitCall(OpaqueAuth credential, byte[] token) implements CallBody {

	@Override
	public void write(XdrEncoder encoder) {
		encoder.writeOpaque(this.token);
	}

	@Override
	public String procedureName() {
		return "RPCSEC_GSS context creation";
	}

	/** RFC 2203 §5.2.2: context creation calls carry an AUTH_NONE verifier. */
	@Override
	public OpaqueAuth verifier(ByteBuffer header) {
		return AuthNone.INSTANCE;
	}

}
