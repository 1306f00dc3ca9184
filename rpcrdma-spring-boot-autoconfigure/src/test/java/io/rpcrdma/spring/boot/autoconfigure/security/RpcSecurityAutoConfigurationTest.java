package io.rpcrdma.spring.boot.autoconfigure.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.client.RpcClientFactory;

/**
 * The server's security policy from {@code rpcrdma.server.security.*}, AUTH_SYS clients from
 * {@code rpcrdma.client.<name>.security.*}, and Spring Security's method security on an
 * {@code @RpcService} through the caller put in the {@code SecurityContext}: real calls over
 * loopback.
 */
class RpcSecurityAutoConfigurationTest {

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("security")
		.withConfiguration(AutoConfigurations.of(RpcRdmaSecurityAutoConfiguration.class))
		.withUserConfiguration(MethodSecurity.class)
		.withPropertyValues("rpcrdma.server.security.services.Ledger.flavors=sys",
				"rpcrdma.server.security.services.Ledger.procedures.whoAmI=none,sys",
				"rpcrdma.client.teller.security.flavor=sys", "rpcrdma.client.teller.security.uid=4242",
				"rpcrdma.client.teller.security.gid=100", "rpcrdma.client.teller.security.gids=7,8",
				"rpcrdma.client.teller.security.machine-name=till-1", "rpcrdma.client.intruder.security.flavor=sys",
				"rpcrdma.client.intruder.security.uid=1", "rpcrdma.client.intruder.security.gid=1",
				"rpcrdma.client.intruder.security.gids=", "rpcrdma.client.intruder.security.machine-name=elsewhere");

	@Test
	void aCallWithoutAuthSysIsRefusedByThePolicyBeforeTheMethod() {
		this.runner.run((context) -> {
			Ledger anonymous = context.getBean(RpcClientFactory.class).createClient(Ledger.class, "default");
			assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> anonymous.balance("acct-1"))
				.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_TOOWEAK));
			assertThat(context.getBean(LedgerService.class).balanceCalls()).isZero();
			assertThat(anonymous.whoAmI("?")).isEqualTo("anonymous authenticated=true [ROLE_ANONYMOUS, RPC_FLAVOR_NONE]");
		});
	}

	@Test
	void theServiceSeesTheAuthSysCallerInTheSecurityContextButNotAuthenticated() {
		this.runner.run((context) -> {
			Ledger teller = context.getBean(RpcClientFactory.class).createClient(Ledger.class, "teller");
			// AUTH_SYS is what the caller asserts: by default the uid is shown, not granted.
			assertThat(teller.whoAmI("?")).isEqualTo("4242@till-1 authenticated=false [RPC_FLAVOR_SYS]");
			assertThatExceptionOfType(AccessDeniedException.class).isThrownBy(() -> teller.balance("acct-1"));
			assertThat(context.getBean(LedgerService.class).balanceCalls()).isZero();
		});
	}

	@Test
	void whereAuthSysIsTrustedMethodSecurityDecidesOnTheUid() {
		this.runner.withPropertyValues("rpcrdma.server.security.trust-auth-sys=true").run((context) -> {
			RpcClientFactory clients = context.getBean(RpcClientFactory.class);
			Ledger teller = clients.createClient(Ledger.class, "teller");
			assertThat(teller.whoAmI("?")).isEqualTo(
					"4242@till-1 authenticated=true [RPC_FLAVOR_SYS, RPC_UID_4242, RPC_GID_100, RPC_GID_7, RPC_GID_8]");
			assertThat(teller.balance("acct-1")).isEqualTo("acct-1: 100");
			assertThatExceptionOfType(AccessDeniedException.class)
				.isThrownBy(() -> clients.createClient(Ledger.class, "intruder").balance("acct-1"));
			assertThat(context.getBean(LedgerService.class).balanceCalls()).isOne();
		});
	}

	@Test
	void aPolicyEntryForAServiceThatIsNotExportedFailsTheStart() {
		this.runner.withPropertyValues("rpcrdma.server.security.services.Ledgr.flavors=sys").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("rpcrdma.server.security.services.Ledgr names no exported service")
				.hasMessageContaining("Ledger");
		});
	}

	@Test
	void anUnknownFlavorIsRefusedWithThePropertyNamed() {
		this.runner.withPropertyValues("rpcrdma.server.security.flavors=none,unix").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("rpcrdma.server.security.flavors[1] must be one of none, sys, krb5, krb5i, krb5p");
		});
	}

	@Test
	void krb5WithoutAKerberosIdentityIsRefusedSayingWhichPropertiesToSet() {
		this.runner.withPropertyValues("rpcrdma.server.security.flavors=krb5p").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("rpcrdma.server.security.flavors[0] krb5p needs the server's Kerberos identity")
				.hasMessageContaining("rpcrdma.server.security.kerberos.principal and .keytab");
		});
		this.runner.withPropertyValues("rpcrdma.client.teller.security.flavor=krb5",
				"rpcrdma.client.teller.security.kerberos.principal=teller@EXAMPLE.COM",
				"rpcrdma.client.teller.security.kerberos.service=rpcrdma@localhost")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("rpcrdma.client.teller.security.flavor krb5 needs exactly one of"
							+ " rpcrdma.client.teller.security.kerberos.keytab and");
			});
	}

	/** The guarded service. */
	@RpcProgram(number = 0x20000c20, version = 1, name = "Ledger")
	public interface Ledger {

		@RpcProcedure(1)
		String balance(String account);

		@RpcProcedure(2)
		String whoAmI(String ignored);

	}

	@RpcService
	public static class LedgerService implements Ledger {

		private final AtomicInteger balances = new AtomicInteger();

		/** @return how often {@code balance} ran (a method: the bean is a proxy whose fields are not the target's) */
		public int balanceCalls() {
			return this.balances.get();
		}

		@Override
		@PreAuthorize("hasAuthority('RPC_UID_4242')")
		public String balance(String account) {
			this.balances.incrementAndGet();
			return account + ": 100";
		}

		@Override
		public String whoAmI(String ignored) {
			Authentication caller = SecurityContextHolder.getContext().getAuthentication();
			return caller.getName() + " authenticated=" + caller.isAuthenticated() + " " + caller.getAuthorities();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableMethodSecurity(proxyTargetClass = true)
	@Import(LedgerService.class)
	static class MethodSecurity {

	}

}
