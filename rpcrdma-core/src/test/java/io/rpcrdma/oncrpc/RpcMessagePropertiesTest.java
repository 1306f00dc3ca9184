package io.rpcrdma.oncrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.ByteBuffer;
import java.util.Arrays;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import io.rpcrdma.xdr.BufferKind;
import io.rpcrdma.xdr.Hex;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * Round-trip and robustness properties of {@link RpcMessageCodec} over arbitrary valid calls
 * and replies: the header comes back equal with the body untouched after it, its size is
 * what {@link RpcMessageCodec#encodedSize} says, every prefix is reported as truncated, and
 * corrupting any word of a valid message yields a decoded message or a declared exception,
 * never anything else.
 */
class RpcMessagePropertiesTest {

	@Property
	void callsRoundTripLeavingTheArgumentsInPlace(@ForAll("calls") RpcCall call,
			@ForAll @Size(max = 24) byte[] arguments, @ForAll("writable") BufferKind into, @ForAll BufferKind from) {
		assertRoundTrip(call, arguments, into, from);
	}

	@Property
	void repliesRoundTripLeavingTheResultsInPlace(@ForAll("replies") RpcReply reply,
			@ForAll @Size(max = 24) byte[] results, @ForAll("writable") BufferKind into, @ForAll BufferKind from) {
		assertRoundTrip(reply, results, into, from);
	}

	private static void assertRoundTrip(RpcMessage message, byte[] body, BufferKind into, BufferKind from) {
		int headerSize = RpcMessageCodec.encodedSize(message);
		XdrEncoder encoder = new XdrEncoder(into.allocate(headerSize + 4 + body.length + 3));
		RpcMessageCodec.encode(message, encoder);
		assertThat(encoder.position()).isEqualTo(headerSize);
		encoder.writeOpaque(body);
		byte[] wire = Hex.bytes(encoder.buffer().flip());

		XdrDecoder decoder = new XdrDecoder(from.wrap(wire));
		assertThat(RpcMessageCodec.decode(decoder)).isEqualTo(message);
		assertThat(decoder.position()).isEqualTo(headerSize);
		assertThat(decoder.readOpaqueBytes(body.length)).isEqualTo(body);
		assertThat(decoder.remaining()).isZero();
	}

	@Property
	void everyStrictPrefixIsTruncation(@ForAll("messages") RpcMessage message, @ForAll @IntRange(min = 0) int cut) {
		byte[] wire = encode(message);
		byte[] prefix = Arrays.copyOf(wire, cut % wire.length);
		Throwable thrown = catchThrowable(() -> RpcMessageCodec.decode(new XdrDecoder(ByteBuffer.wrap(prefix))));
		if (prefix.length < 4) {
			assertThat(thrown).isExactlyInstanceOf(XdrTruncatedException.class);
		}
		else {
			assertThat(thrown).isExactlyInstanceOf(TruncatedMessageException.class);
			assertThat(((OncRpcException) thrown).xid()).isEqualTo(message.xid());
		}
	}

	@Property
	void corruptingAWordYieldsAMessageOrADeclaredException(@ForAll("messages") RpcMessage message,
			@ForAll @IntRange(min = 0) int word, @ForAll("wordValues") int value, @ForAll BufferKind kind) {
		byte[] wire = encode(message);
		ByteBuffer.wrap(wire).putInt(4 * (word % (wire.length / 4)), value);
		XdrDecoder decoder = new XdrDecoder(kind.wrap(wire));
		try {
			RpcMessageCodec.decode(decoder);
			assertThat(decoder.position()).isBetween(0, wire.length);
		}
		catch (OncRpcException | XdrException expected) {
			if (expected instanceof OncRpcException rpc) {
				assertThat(rpc.xid()).isEqualTo(ByteBuffer.wrap(wire).getInt());
			}
		}
	}

	@Property
	void arbitraryBytesYieldAMessageOrADeclaredException(@ForAll @Size(max = 80) byte[] input) {
		Throwable thrown = catchThrowable(() -> RpcMessageCodec.decode(new XdrDecoder(ByteBuffer.wrap(input))));
		if (thrown != null) {
			assertThat(thrown).isInstanceOfAny(OncRpcException.class, XdrException.class);
		}
	}

	@Property
	void serverRepliesToRejectedCallsAreDecodableReplies(@ForAll("calls") RpcCall call,
			@ForAll @IntRange(min = 3, max = 1000) int rpcVersion) {
		byte[] wire = encode(call);
		ByteBuffer.wrap(wire).putInt(8, rpcVersion);
		OncRpcException ex = (OncRpcException) catchThrowable(
				() -> RpcMessageCodec.decodeCall(new XdrDecoder(ByteBuffer.wrap(wire))));
		assertThat(ex).isExactlyInstanceOf(RpcVersionMismatchException.class);
		RpcReply reply = ex.reply().orElseThrow();
		assertThat(RpcMessageCodec.decodeReply(new XdrDecoder(ByteBuffer.wrap(encode(reply))))).isEqualTo(reply)
			.extracting(RpcReply::xid)
			.isEqualTo(call.xid());
		assertThatExceptionOfType(MessageTypeException.class)
			.isThrownBy(() -> RpcMessageCodec.decodeCall(new XdrDecoder(ByteBuffer.wrap(encode(reply)))));
	}

	private static byte[] encode(RpcMessage message) {
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(RpcMessageCodec.encodedSize(message)));
		RpcMessageCodec.encode(message, encoder);
		return encoder.buffer().array();
	}

	@Provide
	Arbitrary<BufferKind> writable() {
		return Arbitraries.of(BufferKind.HEAP, BufferKind.HEAP_OFFSET, BufferKind.DIRECT);
	}

	/** Values that sit on the boundaries this codec checks, and some that do not. */
	@Provide
	Arbitrary<Integer> wordValues() {
		return Arbitraries.oneOf(Arbitraries.of(0, 1, 2, 3, 4, 5, 6, 7, 13, 14, 15, 16, 17, 255, 256, 400, 401, -1,
				Integer.MIN_VALUE, Integer.MAX_VALUE), Arbitraries.integers());
	}

	@Provide
	Arbitrary<RpcMessage> messages() {
		return Arbitraries.oneOf(calls(), replies());
	}

	@Provide
	Arbitrary<RpcCall> calls() {
		Arbitrary<Integer> ints = Arbitraries.integers();
		return Combinators.combine(ints, ints, ints, ints, auths(), auths()).as(RpcCall::new);
	}

	@Provide
	Arbitrary<RpcReply> replies() {
		Arbitrary<Integer> ints = Arbitraries.integers();
		Arbitrary<AcceptStatus> statuses = Arbitraries.oneOf(
				Arbitraries.of(AcceptStatus.SUCCESS, AcceptStatus.PROG_UNAVAIL, AcceptStatus.PROC_UNAVAIL,
						AcceptStatus.GARBAGE_ARGS, AcceptStatus.SYSTEM_ERR),
				Combinators.combine(ints, ints).as(AcceptStatus.ProgMismatch::new));
		Arbitrary<ReplyBody> bodies = Arbitraries.oneOf(Combinators.combine(auths(), statuses).as(AcceptedReply::new),
				Combinators.combine(ints, ints).as(DeniedReply.RpcMismatch::new),
				Arbitraries.of(AuthStat.class).map(DeniedReply.AuthError::new));
		return Combinators.combine(ints, bodies).as(RpcReply::new);
	}

	private Arbitrary<OpaqueAuth> auths() {
		Arbitrary<Integer> ints = Arbitraries.integers();
		Arbitrary<int[]> gids = ints.array(int[].class).ofMaxSize(AuthSys.MAX_GIDS);
		Arbitrary<AuthSys> sys = Combinators.combine(ints, machineNames(), ints, ints, gids).as(AuthSys::new);
		Arbitrary<RawAuth> raw = Combinators
			.combine(ints.filter((f) -> f != AuthFlavor.AUTH_NONE && f != AuthFlavor.AUTH_SYS),
					Arbitraries.bytes().array(byte[].class).ofMaxSize(OpaqueAuth.MAX_BODY_LENGTH))
			.as(RawAuth::new);
		return Arbitraries.oneOf(Arbitraries.just(AuthNone.INSTANCE), sys, raw);
	}

	private Arbitrary<String> machineNames() {
		Arbitrary<String> ascii = Arbitraries.strings().withCharRange('!', '~').ofMaxLength(AuthSys.MAX_MACHINE_NAME_LENGTH);
		// At most 4 UTF-8 bytes per code point: 63 code points stay within 255 bytes.
		Arbitrary<String> unicode = Arbitraries.integers()
			.between(0, Character.MAX_CODE_POINT)
			.filter((cp) -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
			.list()
			.ofMaxSize(63)
			.map((cps) -> new String(cps.stream().mapToInt(Integer::intValue).toArray(), 0, cps.size()));
		return Arbitraries.oneOf(ascii, unicode);
	}

}
