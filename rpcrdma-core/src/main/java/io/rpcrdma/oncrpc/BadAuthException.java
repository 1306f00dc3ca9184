package io.rpcrdma.oncrpc;

import java.util.Optional;

/**
 * A credential or verifier cannot be decoded: its body exceeds the 400 bytes RFC 5531 §8.2
 * allows, or it is of a flavor this layer interprets (AUTH_SYS, RFC 5531 Appendix A) and its
 * body does not hold exactly that flavor's structure within its bounds.
 * <p>
 * {@link #authStat()} says which field: {@link AuthStat#AUTH_BADCRED} for a call's
 * credential, {@link AuthStat#AUTH_BADVERF} for a call's verifier (a server answers both with
 * the MSG_DENIED AUTH_ERROR {@link #reply()}), or {@link AuthStat#AUTH_INVALIDRESP} for a
 * reply's verifier (the client fails the call; there is nothing to answer). A message that
 * ends inside a body is reported as a {@link TruncatedMessageException} instead.
 */
public final class BadAuthException extends OncRpcException {

	private static final long serialVersionUID = 1L;

	private final AuthStat authStat;

	BadAuthException(int xid, AuthStat authStat, String detail, Throwable cause) {
		super(xid, "ONC RPC " + describe(authStat) + " of message xid " + xidText(xid) + " is malformed: " + detail,
				cause);
		this.authStat = authStat;
	}

	/**
	 * @return AUTH_BADCRED, AUTH_BADVERF or AUTH_INVALIDRESP, naming the field at fault
	 */
	public AuthStat authStat() {
		return this.authStat;
	}

	/**
	 * @return for a call, MSG_DENIED AUTH_ERROR with {@link #authStat()}; for a reply, empty
	 */
	@Override
	public Optional<RpcReply> reply() {
		if (this.authStat == AuthStat.AUTH_INVALIDRESP) {
			return Optional.empty();
		}
		return Optional.of(RpcReply.authError(xid(), this.authStat));
	}

	private static String describe(AuthStat authStat) {
		return switch (authStat) {
			case AUTH_BADCRED -> "call credential";
			case AUTH_BADVERF -> "call verifier";
			default -> "reply verifier";
		};
	}

}
