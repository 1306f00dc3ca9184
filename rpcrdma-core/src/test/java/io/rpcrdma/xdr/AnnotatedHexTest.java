package io.rpcrdma.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class AnnotatedHexTest {

	@Test
	void stripsCommentsAndWhitespace() {
		byte[] bytes = Hex.hex("""
				0a0b0c0d // a word
				  ff 00   // split word // with a second comment
				""");
		assertThat(bytes).containsExactly(0x0a, 0x0b, 0x0c, 0x0d, 0xff, 0x00);
	}

	@Test
	void rejectsStrayCharactersAndOddDigits() {
		assertThatIllegalArgumentException().isThrownBy(() -> Hex.hex("0g"));
		assertThatIllegalArgumentException().isThrownBy(() -> Hex.hex("abc"));
	}

	@Test
	void formatsWords() {
		assertThat(Hex.words(new byte[] { 1, 2, 3, 4, (byte) 0xab })).isEqualTo("01020304 ab");
		assertThat(Hex.concat(new byte[] { 1 }, new byte[] { 2, 3 })).containsExactly(1, 2, 3);
	}

}
