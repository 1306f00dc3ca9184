package io.rpcrdma.oncrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/**
 * The credential and verifier records enforce the bounds of RFC 5531 §8.2 and Appendix A on
 * construction, so any value that exists can be encoded, and they are immutable.
 */
class OpaqueAuthTest {

	@Test
	void authNoneIsFlavorZeroAndShared() {
		assertThat(OpaqueAuth.none()).isSameAs(AuthNone.INSTANCE);
		assertThat(AuthNone.INSTANCE.flavor()).isZero();
		assertThat(RpcMessageCodec.encodedSize(AuthNone.INSTANCE)).isEqualTo(8);
	}

	@Test
	void authSysMachineNameIsBoundedTo255Utf8Bytes() {
		assertThat(AuthSys.of("a".repeat(255), 0, 0).machineName()).hasSize(255);
		assertThatIllegalArgumentException().isThrownBy(() -> AuthSys.of("a".repeat(256), 0, 0))
			.withMessageContaining("256 UTF-8 bytes exceeds the 255");
		// 128 two-byte characters are 256 bytes: the bound is on bytes, not characters.
		assertThatIllegalArgumentException().isThrownBy(() -> AuthSys.of("\u00e9".repeat(128), 0, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> AuthSys.of("host\ud800", 0, 0))
			.withMessageContaining("unpaired surrogate");
	}

	@Test
	void authSysGidsAreBoundedTo16() {
		assertThat(AuthSys.of("h", 0, 0, new int[16]).gidCount()).isEqualTo(16);
		assertThatIllegalArgumentException().isThrownBy(() -> AuthSys.of("h", 0, 0, new int[17]))
			.withMessageContaining("at most 16 gids");
	}

	@Test
	void authSysLargestBodyFitsTheOpaqueAuthBound() {
		AuthSys largest = new AuthSys(0, "h".repeat(255), 0, 0, new int[16]);
		// stamp 4, name 4 + 256, uid 4, gid 4, count 4, gids 64 = 340 <= 400.
		assertThat(RpcMessageCodec.encodedSize(largest)).isEqualTo(8 + 340);
	}

	@Test
	void authSysIsImmutableAndComparesByContent() {
		int[] gids = { 1, 2 };
		AuthSys auth = new AuthSys(5, "host", 10, 20, gids);
		gids[0] = 99;
		assertThat(auth.gids()).containsExactly(1, 2);
		auth.gids()[1] = 99;
		assertThat(auth.gid(1)).isEqualTo(2);
		assertThat(auth).isEqualTo(new AuthSys(5, "host", 10, 20, new int[] { 1, 2 }))
			.hasSameHashCodeAs(new AuthSys(5, "host", 10, 20, new int[] { 1, 2 }))
			.isNotEqualTo(new AuthSys(5, "host", 10, 20, new int[] { 1 }));
		assertThat(auth.flavor()).isEqualTo(AuthFlavor.AUTH_SYS);
	}

	@Test
	void authSysPrintsIdsAsUnsigned() {
		assertThat(AuthSys.of("h", -2, -2, -2)).hasToString(
				"AuthSys[stamp=0, machineName=h, uid=4294967294, gid=4294967294, gids=[4294967294]]");
	}

	@Test
	void rawAuthBodyIsBoundedTo400Bytes() {
		assertThat(new RawAuth(AuthFlavor.RPCSEC_GSS, new byte[400]).bodyLength()).isEqualTo(400);
		assertThatIllegalArgumentException().isThrownBy(() -> new RawAuth(AuthFlavor.RPCSEC_GSS, new byte[401]))
			.withMessageContaining("401 bytes exceeds the 400 bytes RFC 5531 §8.2 allows");
	}

	@Test
	void rawAuthIsNotForTheFlavorsThatHaveTheirOwnType() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RawAuth(AuthFlavor.AUTH_NONE, new byte[0]))
			.withMessageContaining("AuthNone");
		assertThatIllegalArgumentException().isThrownBy(() -> new RawAuth(AuthFlavor.AUTH_SYS, new byte[0]))
			.withMessageContaining("AuthSys");
	}

	@Test
	void rawAuthIsImmutableAndComparesByContent() {
		byte[] body = { 1, 2, 3 };
		RawAuth auth = new RawAuth(AuthFlavor.AUTH_SHORT, body);
		body[0] = 9;
		auth.body()[1] = 9;
		assertThat(auth.body()).containsExactly(1, 2, 3);
		assertThat(auth).isEqualTo(new RawAuth(AuthFlavor.AUTH_SHORT, new byte[] { 1, 2, 3 }))
			.hasSameHashCodeAs(new RawAuth(AuthFlavor.AUTH_SHORT, new byte[] { 1, 2, 3 }))
			.isNotEqualTo(new RawAuth(AuthFlavor.AUTH_DH, new byte[] { 1, 2, 3 }))
			.hasToString("RawAuth[flavor=AUTH_SHORT, body=010203]");
	}

	@Test
	void flavorNumbersAreTheRegisteredOnes() {
		assertThat(new int[] { AuthFlavor.AUTH_NONE, AuthFlavor.AUTH_SYS, AuthFlavor.AUTH_SHORT, AuthFlavor.AUTH_DH,
				AuthFlavor.RPCSEC_GSS })
			.containsExactly(0, 1, 2, 3, 6);
		assertThat(AuthFlavor.name(6)).isEqualTo("RPCSEC_GSS");
		assertThat(AuthFlavor.name(-1)).isEqualTo("4294967295");
	}

}
