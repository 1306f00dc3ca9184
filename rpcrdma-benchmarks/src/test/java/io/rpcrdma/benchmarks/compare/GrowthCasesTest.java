package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Growth's {@code --connections}, {@code --sizes} and {@code --idle} choose the points of a
 * curve instead of the pace's, so that one curve can be run alone (issue #34's 10,000 idle
 * connections, its 256 and 1,024 active ones).
 */
class GrowthCasesTest {

	@Test
	void withoutOptionsThePacesListsAreUsed() {
		assertThat(Growth.Cases.of(Pace.FULL, List.of())).isEqualTo(Growth.Cases.of(Pace.FULL));
		assertThat(Growth.Cases.of(Pace.FULL).idle()).contains(10_000);
	}

	@Test
	void eachOptionReplacesItsListAndNoneSkipsTheCurve() {
		Growth.Cases cases = Growth.Cases.of(Pace.FULL,
				List.of("--connections", "256,1024", "--sizes", "none", "--idle", "0, 10000"));
		assertThat(cases.connections()).containsExactly(256, 1024);
		assertThat(cases.sizes()).isEmpty();
		assertThat(cases.idle()).containsExactly(0, 10_000);
	}

	@Test
	void aValueThatIsNotAListOfCountsSaysWhatIsExpected() {
		assertThatIllegalArgumentException().isThrownBy(() -> Growth.Cases.of(Pace.FULL, List.of("--idle", "10k")))
			.withMessage("--idle takes comma-separated counts such as 1,16,256, or none; got '10k'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Growth.Cases.of(Pace.FULL, List.of("--connections", "-1")))
			.withMessageStartingWith("--connections takes");
	}

}
