package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/** Each reply status, decoded from the wire as a client would see it, and its exception. */
class ReplyInterpreterTest {

	private static final RemoteCall CALL = new RemoteCall("rdma://server:20049", 0x2a, 100_003, 3, 7);

	private static final String NAMED = "program 0x186a3 version 3 procedure 7 (xid 0x0000002a) at rdma://server:20049";

	/** Encodes and decodes the reply, so the interpreter sees what a transport delivers. */
	private static RpcReply wire(RpcReply reply) {
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply));
		RpcMessageCodec.encodeReply(reply, new XdrEncoder(buffer));
		return RpcMessageCodec.decodeReply(new XdrDecoder(buffer.flip()));
	}

	private static RpcCallException failure(RpcReply reply) {
		RpcCallException failure = ReplyInterpreter.failureOf(CALL, wire(reply));
		assertThat(failure).isNotNull();
		assertThat(failure.call()).isEqualTo(CALL);
		assertThat(failure).hasMessageContaining("rdma://server:20049");
		return failure;
	}

	@Test
	void successIsNoFailure() {
		assertThat(ReplyInterpreter.failureOf(CALL, wire(RpcReply.success(0x2a)))).isNull();
		assertThatNoException().isThrownBy(() -> ReplyInterpreter.check(CALL, wire(RpcReply.success(0x2a))));
	}

	@Test
	void progUnavail() {
		assertThat(failure(RpcReply.progUnavail(0x2a))).isInstanceOf(ProgramUnavailableException.class)
			.hasMessage("Program 0x186a3 is not available at rdma://server:20049 (PROG_UNAVAIL for " + NAMED
					+ "); check the program number and that the server exports it");
	}

	@Test
	void progMismatchCarriesTheServersVersions() {
		RpcCallException failure = failure(RpcReply.progMismatch(0x2a, 2, 4));

		assertThat(failure).isInstanceOf(ProgramVersionMismatchException.class)
			.hasMessageStartingWith("Program 0x186a3 version 3 is not supported at rdma://server:20049, which supports versions 2 to 4");
		assertThat(((ProgramVersionMismatchException) failure).low()).isEqualTo(2);
		assertThat(((ProgramVersionMismatchException) failure).high()).isEqualTo(4);
		assertThat(failure.notExecuted()).isTrue();
	}

	@Test
	void procUnavail() {
		assertThat(failure(RpcReply.procUnavail(0x2a))).isInstanceOf(ProcedureUnavailableException.class)
			.hasMessageStartingWith("Procedure 7 is not available in program 0x186a3 version 3 at rdma://server:20049");
	}

	@Test
	void garbageArgs() {
		assertThat(failure(RpcReply.garbageArgs(0x2a))).isInstanceOf(RemoteGarbageArgumentsException.class)
			.hasMessageContaining("could not decode the arguments of " + NAMED + " (GARBAGE_ARGS)");
	}

	@Test
	void systemErrMayHaveExecuted() {
		RpcCallException failure = failure(RpcReply.systemErr(0x2a));

		assertThat(failure).isInstanceOf(RemoteSystemErrorException.class)
			.hasMessageContaining("failed to execute " + NAMED + " (SYSTEM_ERR)");
		assertThat(failure.notExecuted()).isFalse();
	}

	@Test
	void rpcMismatchCarriesTheServersRpcVersions() {
		RpcCallException failure = failure(RpcReply.rpcMismatch(0x2a, 3, 4));

		assertThat(failure).isInstanceOf(RpcMismatchException.class).hasMessageContaining("supports RPC versions 3 to 4");
		assertThat(((RpcMismatchException) failure).low()).isEqualTo(3);
		assertThat(((RpcMismatchException) failure).high()).isEqualTo(4);
	}

	@Test
	void authErrorCarriesTheAuthStat() {
		for (AuthStat stat : new AuthStat[] { AuthStat.AUTH_BADCRED, AuthStat.AUTH_REJECTEDCRED, AuthStat.AUTH_BADVERF,
				AuthStat.AUTH_REJECTEDVERF, AuthStat.AUTH_TOOWEAK, AuthStat.RPCSEC_GSS_CREDPROBLEM }) {
			RpcCallException failure = failure(RpcReply.authError(0x2a, stat));

			assertThat(failure).isInstanceOf(AuthenticationException.class)
				.hasMessageContaining("refused the credentials of " + NAMED + ": " + stat.name());
			assertThat(((AuthenticationException) failure).authStat()).isEqualTo(stat);
		}
	}

	@Test
	void checkThrowsTheFailure() {
		assertThatThrownBy(() -> ReplyInterpreter.check(CALL, wire(RpcReply.procUnavail(0x2a))))
			.isInstanceOf(ProcedureUnavailableException.class);
	}

}
