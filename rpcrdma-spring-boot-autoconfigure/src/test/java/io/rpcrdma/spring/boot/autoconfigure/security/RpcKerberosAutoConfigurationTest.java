package io.rpcrdma.spring.boot.autoconfigure.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.gss.KerberosLoginException;
import io.rpcrdma.server.security.GssContextLimits;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.autoconfigure.security.RpcSecurityAutoConfigurationTest.Ledger;
import io.rpcrdma.spring.boot.autoconfigure.security.RpcSecurityAutoConfigurationTest.LedgerService;
import io.rpcrdma.spring.boot.autoconfigure.security.RpcSecurityAutoConfigurationTest.MethodSecurity;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcServerCustomizer;
import io.rpcrdma.spring.boot.client.RpcClientFactory;

/**
 * RPCSEC_GSS (krb5) configured through {@code rpcrdma.server.security.kerberos.*} and
 * {@code rpcrdma.client.<name>.security.kerberos.*}, with keytabs from a real MIT KDC: the
 * Kerberos caller is authenticated in Spring Security's context, others are too weak, a
 * keytab that is not there fails the client's creation saying which, and the server's context
 * limits are those of {@code rpcrdma.server.security.kerberos.contexts.*}.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
class RpcKerberosAutoConfigurationTest {

	private static final ApplicationContextRunner RUNNER = RpcRdmaAutoConfigurations.runner("kerberos")
		.withConfiguration(AutoConfigurations.of(RpcRdmaSecurityAutoConfiguration.class))
		.withUserConfiguration(MethodSecurity.class)
		.withPropertyValues("rpcrdma.server.security.services.Ledger.flavors=krb5,krb5p",
				"rpcrdma.client.alice.security.flavor=krb5",
				"rpcrdma.client.alice.security.kerberos.principal=" + MitKdc.qualified("spring-alice"),
				"rpcrdma.client.alice.security.kerberos.service=rpcrdma@localhost");

	@Test
	void kerberosClientsAreAuthenticatedInTheServicesSecurityContextAndOthersAreTooWeak(MitKdc kdc) throws Exception {
		server(kdc).withPropertyValues(
				"rpcrdma.client.alice.security.kerberos.keytab=" + kdc.principalWithKeytab("spring-alice"),
				"rpcrdma.client.carol.security.flavor=krb5p",
				"rpcrdma.client.carol.security.kerberos.principal=" + MitKdc.qualified("spring-carol"),
				"rpcrdma.client.carol.security.kerberos.service=rpcrdma@localhost",
				"rpcrdma.client.carol.security.kerberos.keytab=" + kdc.principalWithKeytab("spring-carol"))
			.run((context) -> {
				RpcClientFactory clients = context.getBean(RpcClientFactory.class);
				Ledger alice = clients.createClient(Ledger.class, "alice");
				assertThat(alice.whoAmI("?"))
					.isEqualTo(MitKdc.qualified("spring-alice") + " authenticated=true [RPC_FLAVOR_KRB5]");
				Ledger carol = clients.createClient(Ledger.class, "carol");
				assertThat(carol.whoAmI("?"))
					.isEqualTo(MitKdc.qualified("spring-carol") + " authenticated=true [RPC_FLAVOR_KRB5P]");
				Ledger anonymous = clients.createClient(Ledger.class, "default");
				assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> anonymous.whoAmI("?"))
					.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_TOOWEAK));
				assertThat(context.getBean(LedgerService.class).balanceCalls()).isZero();
			});
	}

	@Test
	void aClientKeytabThatIsNotThereFailsTheClientsCreationNamingIt(MitKdc kdc) throws Exception {
		server(kdc).withPropertyValues("rpcrdma.client.alice.security.kerberos.keytab=target/no-such-alice.keytab")
			.run((context) -> {
				RpcClientFactory clients = context.getBean(RpcClientFactory.class);
				assertThatExceptionOfType(KerberosLoginException.class)
					.isThrownBy(() -> clients.createClient(Ledger.class, "alice"))
					.withMessageContaining("no-such-alice.keytab")
					.withMessageContaining("ktadd");
			});
	}

	@Test
	void theServersContextLimitsComeFromTheProperties(MitKdc kdc) throws Exception {
		AtomicReference<GssContextLimits> limits = new AtomicReference<>();
		String aliceKeytab = "rpcrdma.client.alice.security.kerberos.keytab=" + kdc.principalWithKeytab("spring-alice");
		server(kdc).withPropertyValues(aliceKeytab, "rpcrdma.server.security.kerberos.contexts.max=64",
				"rpcrdma.server.security.kerberos.contexts.per-connection=2",
				"rpcrdma.server.security.kerberos.contexts.per-principal=8",
				"rpcrdma.server.security.kerberos.contexts.creation-timeout=5s",
				"rpcrdma.server.security.kerberos.contexts.idle-limit=10m")
			.withBean(RpcServerCustomizer.class, () -> (config) -> {
				limits.set(config.security().rpcsecGss().limits());
				return config;
			})
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(limits.get())
					.isEqualTo(new GssContextLimits(64, 2, 8, Duration.ofSeconds(5), Duration.ofMinutes(10)));
			});
		limits.set(null);
		server(kdc).withPropertyValues(aliceKeytab).withBean(RpcServerCustomizer.class, () -> (config) -> {
			limits.set(config.security().rpcsecGss().limits());
			return config;
		}).run((context) -> assertThat(limits.get()).as("the defaults").isEqualTo(GssContextLimits.DEFAULTS));
	}

	private static ApplicationContextRunner server(MitKdc kdc) throws Exception {
		return RUNNER.withPropertyValues(
				"rpcrdma.server.security.kerberos.principal=" + MitKdc.qualified("rpcrdma/localhost"),
				"rpcrdma.server.security.kerberos.keytab=" + kdc.principalWithKeytab("rpcrdma/localhost"));
	}

}
