package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;

/**
 * Every path of the flavor benchmark works, against a real KDC: small calls and 1 MiB each
 * way (a registered buffer as argument, a Write chunk result) under none, krb5, krb5i and
 * krb5p. The figures of a smoke run mean nothing and are not checked.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
class FlavorCostSmokeTest {

	@Test
	void everyFlavorRunsEveryCaseAndTheTableHasARowEach(MitKdc kdc) throws Exception {
		ByteArrayOutputStream printed = new ByteArrayOutputStream();
		List<List<Measurement>> rounds = FlavorCost.run(Pace.SMOKE, kdc, new PrintStream(printed, true,
				StandardCharsets.UTF_8));
		assertThat(rounds).singleElement().satisfies((round) -> {
			assertThat(round).hasSize(12);
			assertThat(round).extracting(Measurement::contender).containsOnly("none", "krb5", "krb5i", "krb5p");
			assertThat(round).allSatisfy((m) -> assertThat(m.value()).isPositive());
		});
		String table = printed.toString(StandardCharsets.UTF_8);
		assertThat(table).contains("| none | ", "| krb5 | ", "| krb5i | ", "| krb5p | ", "decide nothing");
	}

}
