package io.rpcrdma.oncrpc;

import static io.rpcrdma.oncrpc.RpcWire.assertWire;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rpcrdma.xdr.BufferKind;
import io.rpcrdma.xdr.EachBuffer;

/**
 * Byte-exact reply headers (RFC 5531 §9 {@code rpc_msg} with {@code reply_body}) for every
 * accept_stat, reject_stat and auth_stat, in both directions, over every buffer kind.
 */
class RpcReplyCodecTest {

	private static final String ACCEPTED = """
			7b3c4d5e /* xid */
			00000001 /* msg_type REPLY */
			00000000 /* reply_stat MSG_ACCEPTED */
			00000000 /* verf flavor AUTH_NONE */
			00000000 /* verf body length 0 */
			""";

	private static final String DENIED = """
			7b3c4d5e /* xid */
			00000001 /* msg_type REPLY */
			00000001 /* reply_stat MSG_DENIED */
			""";

	@EachBuffer
	void successLeavesTheResultsInPlace(BufferKind kind) {
		RpcReply reply = RpcReply.success(0x7b3c4d5e);
		assertWire(kind, reply, ACCEPTED + "00000000 /* accept_stat SUCCESS; results follow */");
		assertThat(reply.isSuccess()).isTrue();
	}

	@org.junit.jupiter.api.Test
	void theSuccessHeaderWrittenFromItsXidIsTheEncodedSuccessReply() {
		java.nio.ByteBuffer expected = java.nio.ByteBuffer.allocate(64);
		RpcMessageCodec.encodeReply(RpcReply.success(0x7b3c4d5e), new io.rpcrdma.xdr.XdrEncoder(expected));
		java.nio.ByteBuffer written = java.nio.ByteBuffer.allocate(64);
		RpcMessageCodec.encodeSuccessHeader(0x7b3c4d5e, new io.rpcrdma.xdr.XdrEncoder(written));

		assertThat(written.flip()).isEqualTo(expected.flip());
		assertThat(written.remaining()).isEqualTo(24);
	}

	@org.junit.jupiter.api.Test
	void aSuccessHeaderThatDoesNotFitWritesNothing() {
		java.nio.ByteBuffer small = java.nio.ByteBuffer.allocate(20);
		io.rpcrdma.xdr.XdrEncoder encoder = new io.rpcrdma.xdr.XdrEncoder(small);

		org.assertj.core.api.Assertions
			.assertThatExceptionOfType(io.rpcrdma.xdr.XdrOverflowException.class)
			.isThrownBy(() -> RpcMessageCodec.encodeSuccessHeader(1, encoder));
		assertThat(small.position()).isZero();
	}

	@EachBuffer
	void successWithAVerifier(BufferKind kind) {
		RpcReply reply = RpcReply.success(0x7b3c4d5e, new RawAuth(AuthFlavor.AUTH_SHORT, new byte[] { 9, 9, 9, 9 }));
		assertWire(kind, reply, """
				7b3c4d5e /* xid */
				00000001 /* REPLY */
				00000000 /* MSG_ACCEPTED */
				00000002 /* verf flavor AUTH_SHORT */
				00000004 /* verf body length 4 */
				09090909 /* verf body */
				00000000 /* SUCCESS */
				""");
	}

	@EachBuffer
	void progUnavail(BufferKind kind) {
		assertWire(kind, RpcReply.progUnavail(0x7b3c4d5e), ACCEPTED + "00000001 /* accept_stat PROG_UNAVAIL */");
	}

	@EachBuffer
	void progMismatchCarriesTheSupportedVersions(BufferKind kind) {
		RpcReply reply = RpcReply.progMismatch(0x7b3c4d5e, 2, 4);
		assertWire(kind, reply, ACCEPTED + """
				00000002 /* accept_stat PROG_MISMATCH */
				00000002 /* mismatch_info.low 2 */
				00000004 /* mismatch_info.high 4 */
				""");
		assertThat(reply.isSuccess()).isFalse();
	}

	@EachBuffer
	void procUnavail(BufferKind kind) {
		assertWire(kind, RpcReply.procUnavail(0x7b3c4d5e), ACCEPTED + "00000003 /* accept_stat PROC_UNAVAIL */");
	}

	@EachBuffer
	void garbageArgs(BufferKind kind) {
		assertWire(kind, RpcReply.garbageArgs(0x7b3c4d5e), ACCEPTED + "00000004 /* accept_stat GARBAGE_ARGS */");
	}

	@EachBuffer
	void systemErr(BufferKind kind) {
		assertWire(kind, RpcReply.systemErr(0x7b3c4d5e), ACCEPTED + "00000005 /* accept_stat SYSTEM_ERR */");
	}

	@EachBuffer
	void rpcMismatchCarriesTheSupportedRpcVersions(BufferKind kind) {
		assertWire(kind, RpcReply.rpcMismatch(0x7b3c4d5e, 2, 2), DENIED + """
				00000000 /* reject_stat RPC_MISMATCH */
				00000002 /* mismatch_info.low 2 */
				00000002 /* mismatch_info.high 2 */
				""");
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(AuthStat.class)
	void authErrorCarriesEachAuthStat(AuthStat status) {
		for (BufferKind kind : BufferKind.values()) {
			assertWire(kind, RpcReply.authError(0x7b3c4d5e, status), DENIED + """
					00000001 /* reject_stat AUTH_ERROR */
					%08x /* auth_stat %s */
					""".formatted(status.code(), status));
		}
	}

	@EachBuffer
	void authErrorTooWeakVector(BufferKind kind) {
		// One auth_stat spelled out, so the parameterized vector above has a fixed anchor.
		assertWire(kind, RpcReply.authError(0x7b3c4d5e, AuthStat.AUTH_TOOWEAK), DENIED + """
				00000001 /* reject_stat AUTH_ERROR */
				00000005 /* auth_stat AUTH_TOOWEAK */
				""");
	}

	@EachBuffer
	void rpcsecGssCtxProblemVector(BufferKind kind) {
		assertWire(kind, RpcReply.authError(0x7b3c4d5e, AuthStat.RPCSEC_GSS_CTXPROBLEM), DENIED + """
				00000001 /* reject_stat AUTH_ERROR */
				0000000e /* auth_stat RPCSEC_GSS_CTXPROBLEM */
				""");
	}

	@EachBuffer
	void commonRepliesDecodeWithoutAllocatingBodies(BufferKind kind) {
		RpcReply first = RpcMessageCodec.decodeReply(RpcWire.decoder(kind, ACCEPTED + "00000000"));
		RpcReply second = RpcMessageCodec.decodeReply(RpcWire.decoder(kind, ACCEPTED + "00000000"));
		assertThat(first.body()).isSameAs(second.body()).isSameAs(RpcReply.success(1).body());
	}

}
