package io.rpcrdma.oncrpc.gss;

/**
 * {@code rpc_gss_service_t} (RFC 2203 §5): the protection a call's body gets.
 */
public enum GssService {

	/** {@code rpc_gss_svc_none} (1): the header's verifier authenticates; the body travels as is. */
	NONE(1),

	/** {@code rpc_gss_svc_integrity} (2): the body travels with a MIC (RFC 2203 §5.3.2.2). */
	INTEGRITY(2),

	/** {@code rpc_gss_svc_privacy} (3): the body travels wrapped (RFC 2203 §5.3.2.3). */
	PRIVACY(3);

	private final int code;

	GssService(int code) {
		this.code = code;
	}

	/** @return the value on the wire */
	public int code() {
		return this.code;
	}

	/**
	 * @param code a value from the wire
	 * @return the service, or {@code null} if RFC 2203 defines none with that value
	 */
	public static GssService of(int code) {
		return switch (code) {
			case 1 -> NONE;
			case 2 -> INTEGRITY;
			case 3 -> PRIVACY;
			default -> null;
		};
	}

}
