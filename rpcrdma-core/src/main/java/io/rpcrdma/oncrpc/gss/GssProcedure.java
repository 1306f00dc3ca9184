package io.rpcrdma.oncrpc.gss;

/**
 * {@code rpc_gss_proc_t} (RFC 2203 §5): what an RPCSEC_GSS credential asks of the server.
 */
public enum GssProcedure {

	/** {@code RPCSEC_GSS_DATA}: an ordinary call under an established context. */
	DATA(0),

	/** {@code RPCSEC_GSS_INIT}: the first context-creation call (RFC 2203 §5.2.2). */
	INIT(1),

	/** {@code RPCSEC_GSS_CONTINUE_INIT}: a further context-creation call. */
	CONTINUE_INIT(2),

	/** {@code RPCSEC_GSS_DESTROY}: the end of a context (RFC 2203 §5.4). */
	DESTROY(3);

	private final int code;

	GssProcedure(int code) {
		this.code = code;
	}

	/** @return the value on the wire */
	public int code() {
		return this.code;
	}

	/**
	 * @param code a value from the wire
	 * @return the procedure, or {@code null} if RFC 2203 defines none with that value
	 */
	public static GssProcedure of(int code) {
		return (code >= 0 && code < values().length) ? values()[code] : null;
	}

}
