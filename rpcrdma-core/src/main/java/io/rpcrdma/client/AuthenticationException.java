package io.rpcrdma.client;

import java.util.Objects;

import io.rpcrdma.oncrpc.AuthStat;

/**
 * The server refused the call's credentials (MSG_DENIED AUTH_ERROR, RFC 5531 §9);
 * {@link #authStat()} says why.
 */
public final class AuthenticationException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	private final AuthStat authStat;

	public AuthenticationException(RemoteCall call, AuthStat authStat) {
		super(call, "The server at " + call.endpoint() + " refused the credentials of " + call + ": "
				+ Objects.requireNonNull(authStat, "authStat") + " (" + explain(authStat) + ")", null);
		this.authStat = authStat;
	}

	/**
	 * @return why authentication failed
	 */
	public AuthStat authStat() {
		return this.authStat;
	}

	@Override
	public boolean notExecuted() {
		return true;
	}

	private static String explain(AuthStat stat) {
		return switch (stat) {
			case AUTH_BADCRED -> "bad credential";
			case AUTH_REJECTEDCRED -> "the client must begin a new session";
			case AUTH_BADVERF -> "bad verifier";
			case AUTH_REJECTEDVERF -> "the verifier expired or was replayed";
			case AUTH_TOOWEAK -> "rejected for security reasons; use a stronger flavor";
			case RPCSEC_GSS_CREDPROBLEM -> "no credentials for the user";
			case RPCSEC_GSS_CTXPROBLEM -> "problem with the security context";
			default -> "RFC 5531 §9 auth_stat " + stat.code();
		};
	}

}
