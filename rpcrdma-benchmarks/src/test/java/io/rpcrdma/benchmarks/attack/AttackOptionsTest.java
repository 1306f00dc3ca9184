package io.rpcrdma.benchmarks.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class AttackOptionsTest {

	private static final Duration THIRTY_SECONDS = Duration.ofSeconds(30);

	@Test
	void defaultsRunEveryAttackAtFullPaceIntoTheDocs() {
		AttackOptions options = AttackOptions.parse();

		assertThat(options.pace()).isEqualTo(AttackPace.FULL);
		assertThat(options.rounds()).isEqualTo(AttackPace.FULL.rounds());
		assertThat(options.output()).isEqualTo(Path.of("docs", "benchmarks"));
		assertThat(options.attacks()).isEqualTo(Attacks.KEYS);
	}

	@Test
	void quickWithRoundsAndAFewAttacks() {
		AttackOptions options = AttackOptions.parse("--quick", "--rounds", "2", "--attacks",
				"stalled-frames, invalidate-sink");

		assertThat(options.pace()).isEqualTo(AttackPace.QUICK);
		assertThat(options.rounds()).isEqualTo(2);
		assertThat(options.attacks()).containsExactly(Attacks.STALLED_FRAMES, Attacks.INVALIDATE_SINK);
		assertThat(Attacks.create(options.attacks(), null, THIRTY_SECONDS)).extracting(Attack::key)
			.as("the phases run in the issue's order")
			.containsExactly(Attacks.INVALIDATE_SINK, Attacks.STALLED_FRAMES);
	}

	@Test
	void withoutAKdcTheContextFloodIsLeftOut() {
		assertThat(Attacks.create(List.of(Attacks.GSS_CONTEXTS, Attacks.AUTH_SYS_FLOOD), null, THIRTY_SECONDS))
			.extracting(Attack::key)
			.containsExactly(Attacks.AUTH_SYS_FLOOD);
	}

	@Test
	void wrongOptionsSayWhatWasWrongWithTheUsage() {
		assertThatIllegalArgumentException().isThrownBy(() -> AttackOptions.parse("--rounds", "0"))
			.withMessageContaining("--rounds must be 1 to 50, not 0")
			.withMessageContaining("usage: UnderAttack");
		assertThatIllegalArgumentException().isThrownBy(() -> AttackOptions.parse("--attacks", "ddos"))
			.withMessageContaining("No attack named ddos");
		assertThatIllegalArgumentException().isThrownBy(() -> AttackOptions.parse("--out"))
			.withMessageContaining("--out needs a value");
		assertThatIllegalArgumentException().isThrownBy(() -> AttackOptions.parse("--fast"))
			.withMessageContaining("Unknown option --fast");
	}

}
