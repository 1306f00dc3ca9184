package io.rpcrdma.oncrpc;

import static io.rpcrdma.oncrpc.RpcWire.decoder;
import static io.rpcrdma.xdr.Hex.hex;
import static io.rpcrdma.xdr.Hex.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.rpcrdma.xdr.AllocationMeter;
import io.rpcrdma.xdr.BufferKind;
import io.rpcrdma.xdr.EachBuffer;
import io.rpcrdma.xdr.EachWritableBuffer;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;
import io.rpcrdma.xdr.XdrLimitExceededException;
import io.rpcrdma.xdr.XdrOverflowException;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * Each way an RPC header can break RFC 5531 fails with its own exception type, carrying the
 * xid, and, where RFC 5531 has the server answer rather than drop the call, the exact reply.
 */
class RpcMessageMalformedInputTest {

	private static final String CALL_PREFIX = """
			0000002a /* xid 42 */
			00000000 /* CALL */
			00000002 /* rpcvers 2 */
			000186a3 /* prog 100003 */
			00000003 /* vers 3 */
			00000001 /* proc 1 */
			""";

	private static final String REPLY_PREFIX = """
			0000002a /* xid 42 */
			00000001 /* REPLY */
			""";

	private static final String AUTH_NONE = "00000000 00000000 /* AUTH_NONE */";

	@EachBuffer
	void unknownMessageTypeIsReportedWithTheXid(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, "0000002a /* xid 42 */ 00000002 /* msg_type 2: undefined */");
		MessageTypeException ex = assertThatExceptionOfType(MessageTypeException.class)
			.isThrownBy(() -> RpcMessageCodec.decode(decoder))
			.withMessageContaining("xid 0x0000002a")
			.withMessageContaining("msg_type 2")
			.withMessageContaining("RFC 5531 §9")
			.actual();
		assertThat(ex.xid()).isEqualTo(42);
		assertThat(ex.messageType()).isEqualTo(2);
		assertThat(ex.reply()).as("nothing to answer").isEmpty();
	}

	@EachBuffer
	void replyWhereACallIsExpectedIsReported(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, REPLY_PREFIX + "00000000 " + AUTH_NONE + " 00000000 /* SUCCESS */");
		assertThatExceptionOfType(MessageTypeException.class).isThrownBy(() -> RpcMessageCodec.decodeCall(decoder))
			.withMessageContaining("is a REPLY where a CALL was expected");
		XdrDecoder call = decoder(kind, RpcCallCodecTest.CALL_AUTH_NONE);
		assertThatExceptionOfType(MessageTypeException.class).isThrownBy(() -> RpcMessageCodec.decodeReply(call))
			.withMessageContaining("is a CALL where a REPLY was expected");
	}

	@EachBuffer
	void wrongRpcVersionCarriesTheRpcMismatchReply(BufferKind kind) {
		for (String rpcvers : new String[] { "00000001", "00000003", "ffffffff" }) {
			XdrDecoder decoder = decoder(kind, "0000002a /* xid */ 00000000 /* CALL */ " + rpcvers + " /* rpcvers */");
			RpcVersionMismatchException ex = assertThatExceptionOfType(RpcVersionMismatchException.class)
				.isThrownBy(() -> RpcMessageCodec.decodeCall(decoder))
				.withMessageContaining("rpcvers " + Long.parseLong(rpcvers, 16))
				.actual();
			assertThat(ex.xid()).isEqualTo(42);
			assertThat(ex.rpcVersion()).isEqualTo((int) Long.parseLong(rpcvers, 16));
			assertThat(ex.reply()).contains(RpcReply.rpcMismatch(42, 2, 2));
		}
	}

	@Test
	void rpcMismatchReplyToAWrongVersionEncodesExactly() {
		XdrDecoder decoder = decoder(BufferKind.HEAP, "0000002a 00000000 00000003 /* rpcvers 3 */");
		RpcVersionMismatchException ex = assertThatExceptionOfType(RpcVersionMismatchException.class)
			.isThrownBy(() -> RpcMessageCodec.decode(decoder))
			.actual();
		assertThat(encode(ex.reply().orElseThrow())).isEqualTo(units(hex("""
				0000002a /* xid of the call */
				00000001 /* REPLY */
				00000001 /* MSG_DENIED */
				00000000 /* RPC_MISMATCH */
				00000002 /* low 2 */
				00000002 /* high 2 */
				""")));
	}

	@EachBuffer
	void unknownReplyStatIsReported(BufferKind kind) {
		assertUnknownStatus(kind, REPLY_PREFIX + "00000002 /* reply_stat 2 */", "reply_stat", 2);
	}

	@EachBuffer
	void unknownAcceptStatIsReported(BufferKind kind) {
		assertUnknownStatus(kind, REPLY_PREFIX + "00000000 /* MSG_ACCEPTED */" + AUTH_NONE + "00000006 /* accept_stat 6 */",
				"accept_stat", 6);
	}

	@EachBuffer
	void unknownRejectStatIsReported(BufferKind kind) {
		assertUnknownStatus(kind, REPLY_PREFIX + "00000001 /* MSG_DENIED */ 00000002 /* reject_stat 2 */",
				"reject_stat", 2);
	}

	@EachBuffer
	void unknownAuthStatIsReported(BufferKind kind) {
		assertUnknownStatus(kind, REPLY_PREFIX + "00000001 00000001 /* MSG_DENIED AUTH_ERROR */ 0000000f /* 15 */",
				"auth_stat", 15);
		assertUnknownStatus(kind, REPLY_PREFIX + "00000001 00000001 /* MSG_DENIED AUTH_ERROR */ ffffffff",
				"auth_stat", -1);
	}

	private static void assertUnknownStatus(BufferKind kind, String vector, String field, int value) {
		XdrDecoder decoder = decoder(kind, vector);
		UnknownStatusException ex = assertThatExceptionOfType(UnknownStatusException.class)
			.isThrownBy(() -> RpcMessageCodec.decodeReply(decoder))
			.withMessageContaining(field + " " + Integer.toUnsignedString(value))
			.withMessageContaining("RFC 5531 §9 does not define")
			.actual();
		assertThat(ex.xid()).isEqualTo(42);
		assertThat(ex.field()).isEqualTo(field);
		assertThat(ex.value()).isEqualTo(value);
		assertThat(ex.reply()).isEmpty();
	}

	@EachBuffer
	void oversizeCredentialIsBadCredBeforeItsBodyIsRead(BufferKind kind) {
		// Only the length is there: 401 is rejected before the decoder looks for the body.
		for (String flavor : new String[] { "00000000", "00000001", "00000006" }) {
			XdrDecoder decoder = decoder(kind, CALL_PREFIX + flavor + " /* cred flavor */ 00000191 /* length 401 */");
			BadAuthException ex = assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrLimitExceededException.class);
			assertThat(ex).hasMessageContaining("call credential").hasMessageContaining("400 bytes RFC 5531 §8.2");
		}
	}

	@EachBuffer
	void hugeCredentialLengthIsBadCredNotNegative(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + "00000006 ffffffff /* length 2^32 - 1 */");
		assertThat(assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrLimitExceededException.class))
			.hasMessageContaining("4294967295");
	}

	@EachBuffer
	void oversizeCallVerifierIsBadVerf(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + AUTH_NONE + " 00000006 00000191 /* verf length 401 */");
		assertThat(assertBadAuth(decoder, AuthStat.AUTH_BADVERF, XdrLimitExceededException.class))
			.hasMessageContaining("call verifier");
	}

	@EachBuffer
	void oversizeReplyVerifierIsInvalidRespWithNothingToAnswer(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, REPLY_PREFIX + "00000000 /* MSG_ACCEPTED */ 00000000 00000191");
		BadAuthException ex = assertThatExceptionOfType(BadAuthException.class)
			.isThrownBy(() -> RpcMessageCodec.decodeReply(decoder))
			.withMessageContaining("reply verifier")
			.actual();
		assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_INVALIDRESP);
		assertThat(ex.reply()).isEmpty();
	}

	@EachBuffer
	void authSysMachineNameOverTheLimitIsBadCred(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + """
				00000001 /* AUTH_SYS */
				00000010 /* body length 16 */
				00000000 /* stamp */
				00000100 /* machinename length 256 > 255 */
				00000000 00000000 /* rest of the body */
				""" + AUTH_NONE);
		assertThat(assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrLimitExceededException.class))
			.hasMessageContaining("RFC 5531 Appendix A");
	}

	@EachBuffer
	void authSysGidsOverTheLimitIsBadCred(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + """
				00000001 /* AUTH_SYS */
				00000018 /* body length 24 */
				00000000 00000000 /* stamp, machinename "" */
				00000000 00000000 /* uid, gid */
				00000011 /* gids count 17 > 16 */
				00000000 /* one gid */
				""" + AUTH_NONE);
		assertThat(assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrLimitExceededException.class))
			.hasMessageContaining("gids count of 17 exceeds the limit of 16");
	}

	@Test
	void hostileGidsCountIsRejectedBeforeAllocation() {
		String vector = CALL_PREFIX + """
				00000001 /* AUTH_SYS */
				00000014 /* body length 20 */
				00000000 00000000 /* stamp, machinename "" */
				00000000 00000000 /* uid, gid */
				000f4240 /* gids count 1,000,000 */
				""" + AUTH_NONE;
		XdrDecoder decoder = decoder(BufferKind.HEAP, vector);
		BadAuthException ex = assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrLimitExceededException.class);
		assertThat(ex).hasMessageContaining("1000000");
		byte[] bytes = hex(vector);
		long allocated = AllocationMeter.bytesAllocatedBy(
				() -> RpcMessageCodec.decode(new XdrDecoder(ByteBuffer.wrap(bytes))));
		assertThat(allocated).as("a 1,000,000-element array would take 4 MB").isLessThan(64 * 1024);
	}

	@EachBuffer
	void authSysFieldsCannotReachPastTheBody(BufferKind kind) {
		// The body says 20 bytes; its gids count of 2 needs 8 more. The verifier and arguments
		// that follow must not be read as gids.
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + """
				00000001 /* AUTH_SYS */
				00000014 /* body length 20 */
				00000000 00000000 /* stamp, machinename "" */
				00000000 00000000 /* uid, gid */
				00000002 /* gids count 2, but the body ends here */
				""" + AUTH_NONE + " cafebabe /* arguments */");
		assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrTruncatedException.class);
	}

	@EachBuffer
	void authSysBodyLongerThanItsParmsIsBadCred(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + """
				00000001 /* AUTH_SYS */
				00000018 /* body length 24 */
				00000000 00000000 /* stamp, machinename "" */
				00000000 00000000 /* uid, gid */
				00000000 /* gids count 0 */
				deadbeef /* 4 bytes the parms do not account for */
				""" + AUTH_NONE);
		assertThat(assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrInvalidValueException.class))
			.hasMessageContaining("4 bytes follow authsys_parms");
	}

	@EachBuffer
	void authSysBodyLengthNotAMultipleOfFourIsBadCred(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + """
				00000001 /* AUTH_SYS */
				00000015 /* body length 21 */
				00000000 00000000 00000000 00000000 00000000 /* parms of 20 bytes */
				00000000 /* a byte of body and 3 of padding */
				""" + AUTH_NONE);
		assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrInvalidValueException.class);
	}

	@EachBuffer
	void authSysMachineNameOfInvalidUtf8IsBadCred(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + """
				00000001 /* AUTH_SYS */
				00000018 /* body length 24 */
				00000000 /* stamp */
				00000002 c3280000 /* machinename: invalid UTF-8 */
				00000000 00000000 00000000 /* uid, gid, no gids */
				""" + AUTH_NONE);
		assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrInvalidValueException.class);
	}

	@EachBuffer
	void malformedAuthSysVerifierIsBadVerf(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + AUTH_NONE + " 00000001 /* verf AUTH_SYS */ 00000004 00000000");
		assertBadAuth(decoder, AuthStat.AUTH_BADVERF, XdrTruncatedException.class);
	}

	@Test
	void badCredentialReplyEncodesExactly() {
		XdrDecoder decoder = decoder(BufferKind.HEAP, CALL_PREFIX + "00000001 00000191");
		BadAuthException ex = assertBadAuth(decoder, AuthStat.AUTH_BADCRED, XdrLimitExceededException.class);
		assertThat(encode(ex.reply().orElseThrow())).isEqualTo(units(hex("""
				0000002a /* xid of the call */
				00000001 /* REPLY */
				00000001 /* MSG_DENIED */
				00000001 /* AUTH_ERROR */
				00000001 /* AUTH_BADCRED */
				""")));
	}

	@EachBuffer
	void credentialBodyRunningPastTheMessageIsTruncationNotBadCred(BufferKind kind) {
		XdrDecoder decoder = decoder(kind, CALL_PREFIX + "00000006 00000010 /* length 16 */ 00000000 /* 4 bytes */");
		TruncatedMessageException ex = assertThatExceptionOfType(TruncatedMessageException.class)
			.isThrownBy(() -> RpcMessageCodec.decodeCall(decoder))
			.withMessageContaining("RPCSEC_GSS opaque_auth body")
			.actual();
		assertThat(ex.xid()).isEqualTo(42);
		assertThat(ex.getCause()).isInstanceOf(XdrTruncatedException.class);
		assertThat(ex.reply()).isEmpty();
	}

	@Test
	void everyStrictPrefixOfAValidMessageIsTruncation() {
		String[] vectors = { RpcCallCodecTest.CALL_AUTH_SYS, RpcCallCodecTest.CALL_AUTH_NONE,
				REPLY_PREFIX + "00000000" + AUTH_NONE + "00000002 00000002 00000003 /* PROG_MISMATCH 2..3 */",
				REPLY_PREFIX + "00000001 00000000 00000002 00000002 /* RPC_MISMATCH 2..2 */",
				REPLY_PREFIX + "00000001 00000001 00000003 /* AUTH_ERROR AUTH_BADVERF */" };
		for (String vector : vectors) {
			byte[] message = hex(vector);
			for (BufferKind kind : BufferKind.values()) {
				for (int length = 0; length < message.length; length++) {
					XdrDecoder decoder = new XdrDecoder(kind.wrap(Arrays.copyOf(message, length)));
					if (length < 4) {
						assertThatExceptionOfType(XdrTruncatedException.class).as("%d bytes", length)
							.isThrownBy(() -> RpcMessageCodec.decode(decoder));
					}
					else {
						assertThatExceptionOfType(TruncatedMessageException.class).as("%d bytes", length)
							.isThrownBy(() -> RpcMessageCodec.decode(decoder))
							.satisfies((ex) -> assertThat(ex.xid()).isEqualTo(ByteBuffer.wrap(message).getInt()))
							.withCauseInstanceOf(XdrTruncatedException.class);
					}
				}
			}
		}
	}

	@EachWritableBuffer
	void headerThatDoesNotFitIsNotWrittenAtAll(BufferKind kind) {
		RpcMessage[] messages = { RpcCall.of(1, 2, 3, 4, AuthSys.of("host", 1, 2, 3, 4)),
				RpcReply.progMismatch(1, 2, 3), RpcReply.authError(1, AuthStat.AUTH_TOOWEAK),
				RpcReply.success(1, new RawAuth(AuthFlavor.AUTH_SHORT, new byte[7])) };
		for (RpcMessage message : messages) {
			int size = RpcMessageCodec.encodedSize(message);
			for (int room = 0; room < size; room++) {
				ByteBuffer buffer = kind.allocate(room);
				XdrEncoder encoder = new XdrEncoder(buffer);
				assertThatExceptionOfType(XdrOverflowException.class).as("%s into %d bytes", message, room)
					.isThrownBy(() -> RpcMessageCodec.encode(message, encoder))
					.withMessageContaining("needed " + size);
				assertThat(encoder.position()).isZero();
				assertThat(io.rpcrdma.xdr.Hex.bytes(buffer.clear())).isEqualTo(new byte[room]);
			}
		}
	}

	@Test
	void everyDecodingFailureAfterTheXidIsAnOncRpcException() {
		assertThat(OncRpcException.class).isAssignableFrom(MessageTypeException.class)
			.isAssignableFrom(RpcVersionMismatchException.class)
			.isAssignableFrom(BadAuthException.class)
			.isAssignableFrom(UnknownStatusException.class)
			.isAssignableFrom(TruncatedMessageException.class);
	}

	private static BadAuthException assertBadAuth(XdrDecoder decoder, AuthStat status,
			Class<? extends Throwable> cause) {
		BadAuthException ex = assertThatExceptionOfType(BadAuthException.class)
			.isThrownBy(() -> RpcMessageCodec.decode(decoder))
			.withCauseExactlyInstanceOf(cause)
			.actual();
		assertThat(ex.xid()).isEqualTo(42);
		assertThat(ex.authStat()).isEqualTo(status);
		assertThat(ex.reply()).contains(RpcReply.authError(42, status));
		return ex;
	}

	private static String encode(RpcMessage message) {
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(RpcMessageCodec.encodedSize(message)));
		RpcMessageCodec.encode(message, encoder);
		return units(encoder.buffer().flip());
	}

}
