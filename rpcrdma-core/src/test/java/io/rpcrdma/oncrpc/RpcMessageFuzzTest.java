package io.rpcrdma.oncrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * Fuzzes ONC RPC message headers (RFC 5531 §9): calls a server receives, replies a client
 * receives, with their credentials and verifiers (AUTH_SYS's parms, RPCSEC_GSS's opaque
 * bodies). Contract: a message, or an {@link OncRpcException} carrying the message's xid and,
 * where RFC 5531 has the server answer, a reply that encodes; an {@link XdrTruncatedException}
 * only when not even an xid arrived. A message encodes to a header that decodes to it again,
 * and the client's allocation-free look at a SUCCESS reply agrees with the full decode.
 * <p>
 * Input: a settings byte (bit 0 a direct buffer; bits 1-2 decode any message, a call, a
 * reply), then the message.
 */
class RpcMessageFuzzTest {

	@FuzzTest(maxDuration = "30s")
	void decodeRpcMessage(byte[] input) {
		DecodeBudget.check(input.length, () -> decode(input));
	}

	private static void decode(byte[] input) {
		if (input.length == 0) {
			return;
		}
		int settings = input[0];
		byte[] message = Arrays.copyOfRange(input, 1, input.length);
		XdrDecoder decoder = new XdrDecoder(wrap(message, (settings & 1) != 0));
		RpcMessage decoded;
		try {
			decoded = switch ((settings >> 1) & 3) {
				case 1 -> RpcMessageCodec.decodeCall(decoder);
				case 2 -> RpcMessageCodec.decodeReply(decoder);
				default -> RpcMessageCodec.decode(decoder);
			};
		}
		catch (OncRpcException expected) {
			assertThat(expected.xid()).isEqualTo(ByteBuffer.wrap(message).getInt());
			assertThat(expected.getMessage()).contains(String.format("0x%08x", expected.xid()));
			expected.reply().ifPresent((reply) -> {
				assertThat(reply.xid()).isEqualTo(expected.xid());
				encode(reply);
			});
			return;
		}
		catch (XdrTruncatedException expected) {
			assertThat(message.length).isLessThan(4);
			return;
		}
		int headerEnd = decoder.position();
		byte[] encoded = encode(decoded);
		assertThat(encoded.length).isLessThanOrEqualTo(headerEnd);
		assertThat(RpcMessageCodec.decode(new XdrDecoder(ByteBuffer.wrap(encoded)))).isEqualTo(decoded);
		XdrDecoder look = new XdrDecoder(wrap(message, (settings & 1) != 0));
		boolean success = RpcMessageCodec.skipSuccessHeader(look);
		boolean plainSuccess = decoded instanceof RpcReply reply && reply.isSuccess()
				&& ((AcceptedReply) reply.body()).verifier() instanceof AuthNone;
		assertThat(success).as("skipSuccessHeader of %s", decoded).isEqualTo(plainSuccess);
		if (success) {
			assertThat(look.position()).isEqualTo(headerEnd);
		}
	}

	private static ByteBuffer wrap(byte[] bytes, boolean direct) {
		return direct ? ByteBuffer.allocateDirect(bytes.length).put(bytes).flip() : ByteBuffer.wrap(bytes);
	}

	private static byte[] encode(RpcMessage message) {
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(message));
		RpcMessageCodec.encode(message, new XdrEncoder(buffer));
		assertThat(buffer.remaining()).as("encodedSize of %s", message).isZero();
		return buffer.array();
	}

}
