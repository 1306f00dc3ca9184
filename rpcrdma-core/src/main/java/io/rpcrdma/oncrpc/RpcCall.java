package io.rpcrdma.oncrpc;

import java.util.Objects;

/**
 * An ONC RPC call header: the {@code call_body} of RFC 5531 §9 with its xid.
 *
 * <pre>
 * struct call_body {
 *     unsigned int rpcvers;       // must be equal to two (2)
 *     unsigned int prog;
 *     unsigned int vers;
 *     unsigned int proc;
 *     opaque_auth  cred;
 *     opaque_auth  verf;
 *     // procedure-specific parameters start here
 * };
 * </pre>
 *
 * {@code rpcvers} is not a component: it is always {@value #RPC_VERSION}, written by the
 * encoder and checked by the decoder. The procedure parameters are not part of this record;
 * they follow the header in the buffer. The {@code unsigned int} fields are held as their 32
 * bits.
 *
 * @param xid the transaction id
 * @param program the remote program number
 * @param version the version of the remote program
 * @param procedure the procedure number within that program version
 * @param credential the caller's credential
 * @param verifier the verifier of the credential
 */
public record RpcCall(int xid, int program, int version, int procedure, OpaqueAuth credential, OpaqueAuth verifier)
		implements RpcMessage {

	/** RFC 5531 §9: the only RPC protocol version, which {@code rpcvers} must equal. */
	public static final int RPC_VERSION = 2;

	public RpcCall {
		Objects.requireNonNull(credential, "credential");
		Objects.requireNonNull(verifier, "verifier");
	}

	/**
	 * A call with AUTH_NONE credential and verifier.
	 * @param xid the transaction id
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number
	 * @return the call header
	 */
	public static RpcCall of(int xid, int program, int version, int procedure) {
		return new RpcCall(xid, program, version, procedure, AuthNone.INSTANCE, AuthNone.INSTANCE);
	}

	/**
	 * A call with the given credential and an AUTH_NONE verifier, as AUTH_SYS uses (RFC 5531
	 * Appendix A).
	 * @param xid the transaction id
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number
	 * @param credential the credential
	 * @return the call header
	 */
	public static RpcCall of(int xid, int program, int version, int procedure, OpaqueAuth credential) {
		return new RpcCall(xid, program, version, procedure, credential, AuthNone.INSTANCE);
	}

	@Override
	public int messageType() {
		return CALL;
	}

}
