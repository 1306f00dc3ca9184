package io.rpcrdma.oncrpc.gss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.RawAuth;

/** RFC 2203 §5: the RPCSEC_GSS credential on the wire. */
class GssCredentialTest {

	@Test
	void aCredentialRoundTripsThroughItsOpaqueAuth() {
		GssCredential credential = new GssCredential(GssProcedure.DATA, 0x8000_0000 - 1, GssService.INTEGRITY,
				new byte[] { 1, 2, 3, 4, 5 });
		RawAuth auth = credential.toAuth();
		assertThat(auth.flavor()).isEqualTo(AuthFlavor.RPCSEC_GSS);
		ByteBuffer body = ByteBuffer.wrap(auth.body());
		assertThat(body.getInt(0)).as("version").isEqualTo(1);
		assertThat(body.getInt(4)).as("gss_proc").isEqualTo(0);
		assertThat(body.getInt(12)).as("service").isEqualTo(2);
		assertThat(body.getInt(16)).as("handle length").isEqualTo(5);
		assertThat(auth.bodyLength()).as("padded to a multiple of four").isEqualTo(28);
		assertThat(GssCredential.of(auth)).isEqualTo(credential);
	}

	@Test
	void anotherVersionOrUnknownProcedureOrServiceIsRefused() {
		assertThatExceptionOfType(GssCredentialException.class)
			.isThrownBy(() -> GssCredential.of(new RawAuth(AuthFlavor.RPCSEC_GSS, words(2, 0, 1, 1, 0))))
			.withMessageContaining("version 2");
		assertThatExceptionOfType(GssCredentialException.class)
			.isThrownBy(() -> GssCredential.of(new RawAuth(AuthFlavor.RPCSEC_GSS, words(1, 4, 1, 1, 0))))
			.withMessageContaining("gss_proc 4");
		assertThatExceptionOfType(GssCredentialException.class)
			.isThrownBy(() -> GssCredential.of(new RawAuth(AuthFlavor.RPCSEC_GSS, words(1, 0, 1, 0, 0))))
			.withMessageContaining("service 0");
	}

	@Test
	void aTruncatedOrOverlongHandleIsRefused() {
		assertThatExceptionOfType(GssCredentialException.class)
			.isThrownBy(() -> GssCredential.of(new RawAuth(AuthFlavor.RPCSEC_GSS, words(1, 0, 1, 1))))
			.withMessageContaining("cut short");
		assertThatExceptionOfType(GssCredentialException.class)
			.isThrownBy(() -> GssCredential.of(new RawAuth(AuthFlavor.RPCSEC_GSS, words(1, 0, 1, 1, 1000))));
	}

	private static byte[] words(int... values) {
		ByteBuffer buffer = ByteBuffer.allocate(4 * values.length);
		for (int value : values) {
			buffer.putInt(value);
		}
		return buffer.array();
	}

}
