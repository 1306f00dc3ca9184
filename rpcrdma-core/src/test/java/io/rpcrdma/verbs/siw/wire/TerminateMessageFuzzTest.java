package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;

/**
 * Fuzzes the body of an RDMAP Terminate (RFC 5040 §4.8), the peer's last words, in both the
 * RFC's layout and the one Linux siw sends from little-endian hosts. Contract: a message or
 * an {@link RdmapHeaderException}; a message takes exactly the bytes it was read from and
 * decodes again to itself once encoded.
 * <p>
 * Input: the Terminate body, everything after the untagged DDP header.
 */
class TerminateMessageFuzzTest {

	@FuzzTest(maxDuration = "30s")
	void decodeTerminate(byte[] input) {
		DecodeBudget.check(input.length, () -> decode(input));
	}

	private static void decode(byte[] input) {
		TerminateMessage message;
		try {
			message = TerminateMessage.decode(ByteBuffer.wrap(input), 0, input.length);
		}
		catch (RdmapHeaderException expected) {
			assertThat(expected.terminateError()).isPresent();
			return;
		}
		assertThat(message.length()).isEqualTo(input.length);
		message.toString();
		message.error();
		ByteBuffer encoded = ByteBuffer.allocate(message.length());
		message.encode(encoded);
		assertThat(encoded.position()).isEqualTo(message.length());
		assertThat(TerminateMessage.decode(encoded, 0, encoded.capacity())).isEqualTo(message);
	}

}
