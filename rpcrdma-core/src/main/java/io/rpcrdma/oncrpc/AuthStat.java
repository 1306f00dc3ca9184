package io.rpcrdma.oncrpc;

/**
 * Why authentication failed: the {@code auth_stat} of RFC 5531 §9, with its wire values.
 * <p>
 * Values 1 to 5 are reported by the server in a MSG_DENIED AUTH_ERROR reply; 6 and 7 are
 * meant for the client's own use ("failed locally"); 8 to 12 are the deprecated Kerberos 4
 * errors (RFC 2695), kept so a reply carrying them still decodes; 13 and 14 come from
 * RPCSEC_GSS (RFC 2203).
 */
public enum AuthStat {

	/** Success. */
	AUTH_OK(0),

	/** Bad credential (seal broken). */
	AUTH_BADCRED(1),

	/** The client must begin a new session. */
	AUTH_REJECTEDCRED(2),

	/** Bad verifier (seal broken). */
	AUTH_BADVERF(3),

	/** The verifier expired or was replayed. */
	AUTH_REJECTEDVERF(4),

	/** Rejected for security reasons. */
	AUTH_TOOWEAK(5),

	/** Bogus response verifier (failed locally). */
	AUTH_INVALIDRESP(6),

	/** Reason unknown (failed locally). */
	AUTH_FAILED(7),

	/** Kerberos generic error; deprecated (RFC 2695). */
	AUTH_KERB_GENERIC(8),

	/** Time of credential expired; deprecated (RFC 2695). */
	AUTH_TIMEEXPIRE(9),

	/** Problem with ticket file; deprecated (RFC 2695). */
	AUTH_TKT_FILE(10),

	/** Cannot decode authenticator; deprecated (RFC 2695). */
	AUTH_DECODE(11),

	/** Wrong net address in ticket; deprecated (RFC 2695). */
	AUTH_NET_ADDR(12),

	/** RPCSEC_GSS: no credentials for the user. */
	RPCSEC_GSS_CREDPROBLEM(13),

	/** RPCSEC_GSS: problem with the context. */
	RPCSEC_GSS_CTXPROBLEM(14);

	private static final AuthStat[] BY_CODE = values();

	private final int code;

	AuthStat(int code) {
		this.code = code;
	}

	/**
	 * @return the value on the wire
	 */
	public int code() {
		return this.code;
	}

	/**
	 * Returns the status with the given wire value.
	 * @param code the value on the wire
	 * @return the status
	 * @throws IllegalArgumentException if RFC 5531 defines no such status
	 */
	public static AuthStat forCode(int code) {
		AuthStat status = lookup(code);
		if (status == null) {
			throw new IllegalArgumentException("RFC 5531 §9 defines no auth_stat " + code);
		}
		return status;
	}

	/** Returns the status with the given wire value, or null; codes are dense from 0. */
	static AuthStat lookup(int code) {
		return (code >= 0 && code < BY_CODE.length) ? BY_CODE[code] : null;
	}

}
