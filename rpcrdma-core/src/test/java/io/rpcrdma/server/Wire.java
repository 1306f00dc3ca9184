package io.rpcrdma.server;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrEncoder;

/** Encodes calls and expected replies for dispatcher tests. */
final class Wire {

	private Wire() {
	}

	/** An encoded call: the header, then each argument as an XDR int. */
	static ByteBuffer call(RpcCall header, int... arguments) {
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(header) + 4 * arguments.length);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeCall(header, encoder);
		for (int argument : arguments) {
			encoder.writeInt(argument);
		}
		return buffer.flip();
	}

	/** The bytes of a reply: the header, then each result as an XDR int. */
	static byte[] reply(RpcReply header, int... results) {
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(header) + 4 * results.length);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeReply(header, encoder);
		for (int result : results) {
			encoder.writeInt(result);
		}
		return buffer.array();
	}

	/** The bytes between a buffer's position and limit. */
	static byte[] bytes(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.duplicate().get(bytes);
		return bytes;
	}

	static String hex(byte[] bytes) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < bytes.length; i++) {
			if (i > 0 && i % 4 == 0) {
				text.append(' ');
			}
			text.append(String.format("%02x", bytes[i]));
		}
		return text.toString();
	}

	/**
	 * Shuts the dispatcher down and checks every call finishes: the in-flight count drops
	 * only after a call's outcome is reported, which may be just after the outcome is seen.
	 */
	static void assertQuiescent(RpcDispatcher dispatcher) throws Exception {
		org.assertj.core.api.Assertions
			.assertThat(dispatcher.shutdown(java.time.Duration.ofSeconds(10))
				.get(20, java.util.concurrent.TimeUnit.SECONDS)
				.quiescent())
			.as("every call finished")
			.isTrue();
	}

	static byte[] concat(byte[] a, byte[] b) {
		byte[] both = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, both, a.length, b.length);
		return both;
	}

}
