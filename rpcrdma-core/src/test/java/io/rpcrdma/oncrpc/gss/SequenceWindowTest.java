package io.rpcrdma.oncrpc.gss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.gss.SequenceWindow.Verdict;

/** RFC 2203 §5.3.3.1 and §7.2: the server's sequence window. */
class SequenceWindowTest {

	@Test
	void eachNumberIsAcceptedOnceInAnyOrderWithinTheWindow() {
		SequenceWindow window = new SequenceWindow(8);
		assertThat(window.accept(5)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(3)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(4)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(3)).isEqualTo(Verdict.REPLAYED);
		assertThat(window.accept(5)).isEqualTo(Verdict.REPLAYED);
	}

	@Test
	void numbersBelowTheWindowAreTooOld() {
		SequenceWindow window = new SequenceWindow(8);
		assertThat(window.accept(20)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(13)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(12)).isEqualTo(Verdict.TOO_OLD);
	}

	@Test
	void movingUpForgetsSlotsReusedByNewNumbers() {
		SequenceWindow window = new SequenceWindow(4);
		for (int seq = 0; seq < 4; seq++) {
			assertThat(window.accept(seq)).isEqualTo(Verdict.ACCEPTED);
		}
		// 5 shares 1's slot: 1 is now below the window, 5 is new.
		assertThat(window.accept(5)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(4)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(1)).isEqualTo(Verdict.TOO_OLD);
		assertThat(window.accept(2)).as("2 is still inside the window 2..5, and was seen").isEqualTo(Verdict.REPLAYED);
	}

	@Test
	void aJumpBeyondTheWholeWindowClearsIt() {
		SequenceWindow window = new SequenceWindow(4);
		window.accept(1);
		assertThat(window.accept(100)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(97)).isEqualTo(Verdict.ACCEPTED);
		assertThat(window.accept(96)).isEqualTo(Verdict.TOO_OLD);
		assertThat(window.accept(100)).isEqualTo(Verdict.REPLAYED);
	}

	@Test
	void numbersAtOrAboveMaxseqAreTheCallersToRefuse() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SequenceWindow(4).accept(GssCredential.MAXSEQ));
		assertThatIllegalArgumentException().isThrownBy(() -> new SequenceWindow(0));
	}

}
