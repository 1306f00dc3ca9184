package io.rpcrdma.client.security;

import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.xdr.XdrDecoder;

/** RFC 2203 §5.2.3.1: {@code rpc_gss_init_res}. */
record GssInitResult(byte[] handle, int major, int minor, int window, byte[] token) {

	/** The longest token accepted from a server in context creation; Kerberos AP-REPs are far shorter. */
	static final int MAX_INIT_OPAQUE = 60 * 1024;

	static GssInitResult decode(XdrDecoder results) {
		byte[] handle = results.readOpaqueBytes(GssCredential.MAX_HANDLE_LENGTH);
		int major = results.readInt();
		int minor = results.readInt();
		int window = results.readInt();
		byte[] token = results.readOpaqueBytes(MAX_INIT_OPAQUE);
		return new GssInitResult(handle, major, minor, window, token);
	}

}
