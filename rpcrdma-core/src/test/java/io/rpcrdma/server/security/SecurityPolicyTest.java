package io.rpcrdma.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.lang.management.ManagementFactory;
import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;

class SecurityPolicyTest {

	private static final int STORE = 0x20000c00;

	private static final int OTHER = 0x20000c01;

	private static final OpaqueAuth NONE = AuthNone.INSTANCE;

	private static final OpaqueAuth SYS = AuthSys.of("client.example", 1000, 100, 10, 20);

	private static final OpaqueAuth DH = new RawAuth(AuthFlavor.AUTH_DH, new byte[8]);

	private final SecurityPolicy policy = SecurityPolicy.builder()
		.byDefault(EnumSet.of(SecurityFlavor.NONE))
		.program(STORE, EnumSet.of(SecurityFlavor.SYS))
		.procedure(STORE, 1, 3, EnumSet.of(SecurityFlavor.NONE, SecurityFlavor.SYS))
		.build();

	@Test
	void aProgramRuleRefusesWeakerFlavorsWithAuthTooWeak() {
		assertThat(this.policy.admit(NONE, STORE, 1, 1)).isEqualTo(AuthStat.AUTH_TOOWEAK);
		assertThat(this.policy.admit(SYS, STORE, 1, 1)).isEqualTo(AuthStat.AUTH_OK);
	}

	@Test
	void aProcedureRuleIsMoreSpecificThanItsProgramsRule() {
		assertThat(this.policy.admit(NONE, STORE, 1, 3)).isEqualTo(AuthStat.AUTH_OK);
		assertThat(this.policy.admit(NONE, STORE, 2, 3)).as("another version of the procedure").isEqualTo(AuthStat.AUTH_TOOWEAK);
		assertThat(this.policy.acceptedFlavors(STORE, 1, 3)).containsExactlyInAnyOrder(SecurityFlavor.NONE, SecurityFlavor.SYS);
	}

	@Test
	void programsWithoutARuleFollowTheDefault() {
		assertThat(this.policy.admit(NONE, OTHER, 1, 1)).isEqualTo(AuthStat.AUTH_OK);
		assertThat(this.policy.admit(SYS, OTHER, 1, 1)).isEqualTo(AuthStat.AUTH_TOOWEAK);
	}

	@Test
	void theNullProcedureAnswersEveryFlavorTheServerChecksButNotOthers() {
		assertThat(this.policy.admit(NONE, STORE, 1, 0)).isEqualTo(AuthStat.AUTH_OK);
		assertThat(this.policy.admit(DH, STORE, 1, 0)).isEqualTo(AuthStat.AUTH_BADCRED);
	}

	@Test
	void aFlavorThePolicyCannotCheckIsABadCredential() {
		assertThat(this.policy.admit(DH, OTHER, 1, 1)).isEqualTo(AuthStat.AUTH_BADCRED);
		assertThat(this.policy.admit(new RawAuth(AuthFlavor.RPCSEC_GSS, new byte[20]), STORE, 1, 1))
			.isEqualTo(AuthStat.AUTH_BADCRED);
	}

	@Test
	void permitAllAdmitsEveryCallSoInterceptorsMayCheckPrivateFlavors() {
		SecurityPolicy all = SecurityPolicy.permitAll();
		assertThat(all.admit(new RawAuth(0x2000_0001, new byte[4]), STORE, 1, 1)).isEqualTo(AuthStat.AUTH_OK);
		assertThat(all.admit(DH, STORE, 1, 1)).isEqualTo(AuthStat.AUTH_OK);
		assertThat(SecurityPolicy.builder().build()).isSameAs(all);
	}

	@Test
	void rulesNamingGssFlavorsAreRefusedWhenBuiltNotWhenCalled() {
		assertThatExceptionOfType(UnsupportedSecurityFlavorException.class)
			.isThrownBy(() -> SecurityPolicy.builder().program(STORE, EnumSet.of(SecurityFlavor.KRB5I)).build())
			.withMessageContaining("krb5i")
			.withMessageContaining("program 0x" + Integer.toHexString(STORE));
	}

	@Test
	void krb5WithoutTheServersKerberosIdentityIsRefusedWhenBuiltSayingWhatToGive() {
		SecurityPolicy.Builder builder = SecurityPolicy.builder().program(STORE, EnumSet.of(SecurityFlavor.KRB5));
		assertThatExceptionOfType(UnsupportedSecurityFlavorException.class).isThrownBy(builder::build)
			.withMessageContaining("krb5")
			.withMessageContaining("rpcsecGss")
			.withMessageContaining("program 0x" + Integer.toHexString(STORE));
	}

	@Test
	void anRpcsecGssCallIsABadCredentialToAServerWithoutAKerberosIdentity() {
		SecurityPolicy policy = SecurityPolicy.builder().byDefault(EnumSet.of(SecurityFlavor.SYS)).build();
		RawAuth gss = new RawAuth(AuthFlavor.RPCSEC_GSS, new byte[20]);
		assertThat(policy.admit(gss, STORE, 1, 1)).isEqualTo(AuthStat.AUTH_BADCRED);
		assertThat(policy.admit(SecurityFlavor.KRB5, STORE, 1, 1)).isEqualTo(AuthStat.AUTH_BADCRED);
		assertThat(policy.rpcsecGss()).isNull();
	}

	@Test
	void emptyAndNullProcedureRulesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> SecurityPolicy.builder().byDefault(Set.of()))
			.withMessageContaining("none, sys, krb5, krb5i, krb5p");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SecurityPolicy.builder().procedure(STORE, 1, 0, EnumSet.of(SecurityFlavor.SYS)))
			.withMessageContaining("NULL");
	}

	@Test
	void aLaterRuleForTheSameProgramReplacesTheEarlierOne() {
		SecurityPolicy replaced = SecurityPolicy.builder()
			.program(STORE, EnumSet.of(SecurityFlavor.SYS))
			.program(STORE, EnumSet.of(SecurityFlavor.NONE))
			.build();
		assertThat(replaced.admit(NONE, STORE, 1, 1)).isEqualTo(AuthStat.AUTH_OK);
		assertThat(replaced.admit(SYS, STORE, 1, 1)).isEqualTo(AuthStat.AUTH_TOOWEAK);
	}

	@Test
	void flavorNamesAreThoseOfNfsSecOption() {
		assertThat(SecurityFlavor.of(" KRB5p ")).isEqualTo(SecurityFlavor.KRB5P);
		assertThat(SecurityFlavor.of("sys").authFlavor()).isEqualTo(AuthFlavor.AUTH_SYS);
		assertThatIllegalArgumentException().isThrownBy(() -> SecurityFlavor.of("unix"))
			.withMessage("Unknown security flavor 'unix': use none, sys, krb5, krb5i or krb5p");
	}

	@Test
	void principalsSayWhetherTheyWereVerified() {
		RpcPrincipal sys = SecurityPolicy.principalOf(SYS);
		assertThat(sys).isInstanceOfSatisfying(AuthSysPrincipal.class, (unix) -> {
			assertThat(unix.uid()).isEqualTo(1000);
			assertThat(unix.gids()).containsExactly(10, 20);
		});
		assertThat(sys.getName()).isEqualTo("1000@client.example");
		assertThat(sys.verified()).isFalse();
		assertThat(SecurityPolicy.principalOf(NONE)).isSameAs(AnonymousPrincipal.INSTANCE);
	}

	@Test
	void admittingACallAllocatesNothing() {
		Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
				&& bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled(),
				"this JVM does not count allocated bytes per thread");
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		int admitted = 0;
		for (int i = 0; i < 20_000; i++) {
			admitted += this.policy.admit(NONE, STORE, 1, 1 + (i & 3)).code();
		}
		long before = threads.getCurrentThreadAllocatedBytes();
		for (int i = 0; i < 20_000; i++) {
			admitted += this.policy.admit(NONE, STORE, 1, 1 + (i & 3)).code();
		}
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		assertThat(admitted).isPositive();
		assertThat(allocated).as("bytes allocated by 20,000 decisions").isLessThan(1024);
	}

}
