package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class CompareOptionsTest {

	@Test
	void defaultsToTheFullRunOfEveryContenderIntoDocsBenchmarks() {
		CompareOptions options = CompareOptions.parse();

		assertThat(options.pace()).isEqualTo(Pace.FULL);
		assertThat(options.output()).isEqualTo(Path.of("docs", "benchmarks"));
		assertThat(options.contenders()).isEqualTo(Contenders.ALL);
		assertThat(CompareOptions.CASES).allMatch(options::measures);
	}

	@Test
	void casesChosenAreTheOnlyOnesMeasured() {
		CompareOptions options = CompareOptions.parse("--cases", "throughput, bulk");

		assertThat(options.measures("throughput")).isTrue();
		assertThat(options.measures("bulk")).isTrue();
		assertThat(options.measures("latency")).isFalse();
		assertThat(options.measures("busy")).isFalse();
	}

	@Test
	void unknownCaseIsNamedWithTheChoices() {
		assertThatIllegalArgumentException().isThrownBy(() -> CompareOptions.parse("--cases", "latency,echo"))
			.withMessageContaining("No case named echo")
			.withMessageContaining("throughput");
	}

	@Test
	void quickRunOfChosenContendersElsewhere() {
		CompareOptions options = CompareOptions.parse("--quick", "--out", "/tmp/x", "--contenders", "socket, rpcrdma-siw");

		assertThat(options.pace()).isEqualTo(Pace.QUICK);
		assertThat(options.output()).isEqualTo(Path.of("/tmp/x"));
		assertThat(options.contenders()).isEqualTo(List.of("socket", "rpcrdma-siw"));
	}

	@Test
	void unknownOptionIsNamedWithTheUsage() {
		assertThatIllegalArgumentException().isThrownBy(() -> CompareOptions.parse("--fast"))
			.withMessageContaining("Unknown option --fast")
			.withMessageContaining("usage: Compare");
	}

	@Test
	void unknownContenderIsNamedWithTheChoices() {
		assertThatIllegalArgumentException().isThrownBy(() -> CompareOptions.parse("--contenders", "socket,thrift"))
			.withMessageContaining("No contender named thrift")
			.withMessageContaining("grpc-java")
			.withMessageContaining(Contenders.SIW_RECEIVE_THREAD)
			.withMessageContaining(Contenders.SIW_NO_POLL);
	}

	@Test
	void aContenderRunOnlyWhenNamedIsAcceptedButNotInTheDefaults() {
		assertThat(CompareOptions
			.parse("--contenders", "rpcrdma-siw," + Contenders.SIW_RECEIVE_THREAD + "," + Contenders.SIW_NO_POLL)
			.contenders()).containsExactly("rpcrdma-siw", Contenders.SIW_RECEIVE_THREAD, Contenders.SIW_NO_POLL);
		assertThat(Contenders.ALL).doesNotContain(Contenders.LOOPBACK, Contenders.SIW_RECEIVE_THREAD,
				Contenders.SIW_NO_POLL);
	}

	@Test
	void optionWithoutItsValueIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> CompareOptions.parse("--out"))
			.withMessageContaining("--out needs a value");
	}

}
