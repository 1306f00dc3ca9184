package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.conformance.ConformanceTool;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.spring.boot.client.RpcClientFactory;

/**
 * {@code --spring.profiles.active=secure}: the demo starts its throw-away Kerberos realm, serves
 * the object store under krb5p only, and its workload runs through RPCSEC_GSS with every body
 * encrypted; a client without Kerberos is refused. Skipped, loudly, without MIT Kerberos.
 */
@Tag("conformance")
class DemoSecureProfileTest {

	@Test
	void theSecureProfileRunsTheWorkloadUnderKrb5pAndRefusesOthers() {
		ConformanceTool.KRB5KDC.require("the demo's secure profile");
		ConformanceTool.KDB5_UTIL.require("the demo's secure profile");
		ConformanceTool.KADMIN_LOCAL.require("the demo's secure profile");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(DemoApplication.class)
			.profiles("secure")
			.web(WebApplicationType.NONE)
			.properties("demo.workload.duration=30s", "demo.workload.max-calls=60", "demo.workload.threads=2",
					"demo.workload.largest-object=1MB", "demo.store.max-object-size=2MB")
			.run()) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			ByteArrayOutputStream err = new ByteArrayOutputStream();
			DemoRunner runner = context.getBean(DemoRunner.class);
			runner.printTo(new PrintStream(out, true, StandardCharsets.UTF_8),
					new PrintStream(err, true, StandardCharsets.UTF_8));
			assertThat(runner.run(List.of())).as(err.toString(StandardCharsets.UTF_8)).isZero();
			assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("workload 100%")
				.containsPattern("\\nall\\s+\\d+\\s");
			ObjectStore anonymous = context.getBean(RpcClientFactory.class).createClient(ObjectStore.class, "anonymous");
			assertThatExceptionOfType(AuthenticationException.class).isThrownBy(anonymous::status)
				.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_TOOWEAK));
		}
	}

}
