package io.rpcrdma.oncrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/**
 * The message records carry RFC 5531 §9's constants and the factories build the headers a
 * client and server need.
 */
class RpcMessageModelTest {

	@Test
	void authStatValuesAreThoseOfRfc5531() {
		assertThat(AuthStat.values()).extracting(AuthStat::code)
			.containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
		assertThat(AuthStat.AUTH_OK.code()).isZero();
		assertThat(AuthStat.AUTH_TOOWEAK.code()).isEqualTo(5);
		assertThat(AuthStat.AUTH_INVALIDRESP.code()).isEqualTo(6);
		assertThat(AuthStat.AUTH_FAILED.code()).isEqualTo(7);
		assertThat(AuthStat.RPCSEC_GSS_CREDPROBLEM.code()).isEqualTo(13);
		assertThat(AuthStat.RPCSEC_GSS_CTXPROBLEM.code()).isEqualTo(14);
		for (AuthStat status : AuthStat.values()) {
			assertThat(AuthStat.forCode(status.code())).isSameAs(status);
		}
		assertThatIllegalArgumentException().isThrownBy(() -> AuthStat.forCode(15));
		assertThatIllegalArgumentException().isThrownBy(() -> AuthStat.forCode(-1));
	}

	@Test
	void acceptStatValuesAreThoseOfRfc5531() {
		assertThat(new int[] { AcceptStatus.SUCCESS.code(), AcceptStatus.PROG_UNAVAIL.code(),
				new AcceptStatus.ProgMismatch(0, 0).code(), AcceptStatus.PROC_UNAVAIL.code(),
				AcceptStatus.GARBAGE_ARGS.code(), AcceptStatus.SYSTEM_ERR.code() })
			.containsExactly(0, 1, 2, 3, 4, 5);
	}

	@Test
	void replyAndRejectStatValuesAreThoseOfRfc5531() {
		assertThat(new int[] { RpcMessage.CALL, RpcMessage.REPLY, ReplyBody.MSG_ACCEPTED, ReplyBody.MSG_DENIED,
				new DeniedReply.RpcMismatch(2, 2).rejectStat(), new DeniedReply.AuthError(AuthStat.AUTH_OK).rejectStat(),
				new DeniedReply.RpcMismatch(2, 2).replyStat(), RpcCall.RPC_VERSION })
			.containsExactly(0, 1, 0, 1, 0, 1, 1, 2);
	}

	@Test
	void callFactoriesUseAuthNoneWhereNothingIsGiven() {
		RpcCall call = RpcCall.of(1, 100003, 3, 0);
		assertThat(call.credential()).isSameAs(AuthNone.INSTANCE);
		assertThat(call.verifier()).isSameAs(AuthNone.INSTANCE);
		assertThat(call.messageType()).isEqualTo(RpcMessage.CALL);
		AuthSys sys = AuthSys.of("h", 1, 1);
		RpcCall withSys = RpcCall.of(1, 100003, 3, 0, sys);
		assertThat(withSys.credential()).isSameAs(sys);
		assertThat(withSys.verifier()).as("RFC 5531 Appendix A: AUTH_SYS goes with an AUTH_NONE verifier")
			.isSameAs(AuthNone.INSTANCE);
	}

	@Test
	void replyFactoriesBuildEachStatus() {
		assertThat(RpcReply.success(7).body()).isEqualTo(new AcceptedReply(AuthNone.INSTANCE, AcceptStatus.SUCCESS));
		assertThat(RpcReply.progUnavail(7).body())
			.isEqualTo(new AcceptedReply(AuthNone.INSTANCE, AcceptStatus.PROG_UNAVAIL));
		assertThat(RpcReply.progMismatch(7, 2, 3).body())
			.isEqualTo(new AcceptedReply(AuthNone.INSTANCE, new AcceptStatus.ProgMismatch(2, 3)));
		assertThat(RpcReply.procUnavail(7).body())
			.isEqualTo(new AcceptedReply(AuthNone.INSTANCE, AcceptStatus.PROC_UNAVAIL));
		assertThat(RpcReply.garbageArgs(7).body())
			.isEqualTo(new AcceptedReply(AuthNone.INSTANCE, AcceptStatus.GARBAGE_ARGS));
		assertThat(RpcReply.systemErr(7).body()).isEqualTo(new AcceptedReply(AuthNone.INSTANCE, AcceptStatus.SYSTEM_ERR));
		assertThat(RpcReply.rpcMismatch(7, 2, 2).body()).isEqualTo(new DeniedReply.RpcMismatch(2, 2));
		assertThat(RpcReply.authError(7, AuthStat.AUTH_BADCRED).body())
			.isEqualTo(new DeniedReply.AuthError(AuthStat.AUTH_BADCRED));
		assertThat(RpcReply.success(7).messageType()).isEqualTo(RpcMessage.REPLY);
		assertThat(RpcReply.success(7).xid()).isEqualTo(7);
	}

	@Test
	void onlyAcceptedSuccessIsSuccess() {
		assertThat(RpcReply.success(1).isSuccess()).isTrue();
		assertThat(RpcReply.success(1, new RawAuth(AuthFlavor.AUTH_SHORT, new byte[4])).isSuccess()).isTrue();
		assertThat(RpcReply.garbageArgs(1).isSuccess()).isFalse();
		assertThat(RpcReply.rpcMismatch(1, 2, 2).isSuccess()).isFalse();
		assertThat(RpcReply.authError(1, AuthStat.AUTH_OK).isSuccess()).isFalse();
	}

}
