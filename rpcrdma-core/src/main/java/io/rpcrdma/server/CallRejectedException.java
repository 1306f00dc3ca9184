package io.rpcrdma.server;

import java.util.Objects;

import io.rpcrdma.oncrpc.AuthStat;

/**
 * Thrown by a handler, or by an {@link io.rpcrdma.service.RpcServerInterceptor}, to refuse a
 * call on the grounds of its credential: the server answers MSG_DENIED AUTH_ERROR with the
 * status (RFC 5531 §9), and the method does not run. The caller gets an {@link io.rpcrdma.client.AuthenticationException}.
 */
public class CallRejectedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final AuthStat status;

	/**
	 * Creates the exception.
	 * @param status why, as RFC 5531 says it: AUTH_BADCRED, AUTH_REJECTEDCRED, AUTH_TOOWEAK...
	 * @param message for the server's log
	 */
	public CallRejectedException(AuthStat status, String message) {
		super(message);
		this.status = Objects.requireNonNull(status, "status");
	}

	/**
	 * The status the reply carries.
	 * @return the auth_stat
	 */
	public AuthStat status() {
		return this.status;
	}

}
