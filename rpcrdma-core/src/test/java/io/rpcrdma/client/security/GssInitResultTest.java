package io.rpcrdma.client.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrLimitExceededException;

/** RFC 2203 §5.2.3.1: {@code rpc_gss_init_res} as the client reads it. */
class GssInitResultTest {

	private static XdrDecoder encoded(byte[] handle, int major, int minor, int window, byte[] token) {
		ByteBuffer buffer = ByteBuffer.allocate(handle.length + token.length + 64);
		new XdrEncoder(buffer).writeOpaque(handle).writeInt(major).writeInt(minor).writeInt(window).writeOpaque(token);
		return new XdrDecoder(buffer.flip());
	}

	@Test
	void decodesEveryFieldInTheOrderTheRfcGivesThem() {
		GssInitResult result = GssInitResult.decode(encoded(new byte[] { 1, 2, 3 }, 0, 7, 128, new byte[] { 9, 8 }));

		assertThat(result.handle()).containsExactly(1, 2, 3);
		assertThat(result.major()).isZero();
		assertThat(result.minor()).isEqualTo(7);
		assertThat(result.window()).isEqualTo(128);
		assertThat(result.token()).containsExactly(9, 8);
	}

	@Test
	void refusesAHandleLongerThanTheCredentialCanCarry() {
		byte[] handle = new byte[GssCredential.MAX_HANDLE_LENGTH + 1];

		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> GssInitResult.decode(encoded(handle, 0, 0, 1, new byte[0])));
	}

	@Test
	void refusesATokenLongerThanContextCreationAccepts() {
		byte[] token = new byte[GssInitResult.MAX_INIT_OPAQUE + 4];

		assertThatExceptionOfType(XdrLimitExceededException.class)
			.isThrownBy(() -> GssInitResult.decode(encoded(new byte[] { 1 }, 0, 0, 1, token)));
	}

}
