package io.rpcrdma.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.client.AuthenticationException;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.service.CredentialInterceptor;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.RpcServerInterceptor;

/**
 * A server's {@link SecurityPolicy} over real connections (loopback and software iWARP): a
 * refused call reaches the caller as AUTH_ERROR with the policy's status and never runs the
 * method, an admitted AUTH_SYS call shows its unverified principal to the service, and the
 * server keeps serving throughout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecurityPolicyEndToEndTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final int PROGRAM = 0x20000c10;

	/** The guarded service. */
	@RpcProgram(number = PROGRAM, version = 1)
	public interface Vault {

		@RpcProcedure(1)
		String open(String what);

		@RpcProcedure(2)
		String peek(String what);

	}

	static final class VaultService implements Vault {

		final AtomicInteger runs = new AtomicInteger();

		@Override
		public String open(String what) {
			this.runs.incrementAndGet();
			return what + " opened";
		}

		@Override
		public String peek(String what) {
			this.runs.incrementAndGet();
			return what + " seen";
		}

	}

	/** {@code open} needs AUTH_SYS, {@code peek} takes AUTH_NONE too. */
	private static final SecurityPolicy POLICY = SecurityPolicy.builder()
		.program(PROGRAM, EnumSet.of(SecurityFlavor.SYS))
		.procedure(PROGRAM, 1, 2, EnumSet.of(SecurityFlavor.NONE, SecurityFlavor.SYS))
		.build();

	private final VaultService vault = new VaultService();

	private final List<RpcPrincipal> principals = new CopyOnWriteArrayList<>();

	private SecuredServer secured;

	@AfterEach
	void close() {
		if (this.secured != null) {
			this.secured.close();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aCallWithoutTheRequiredFlavorIsRefusedAsTooWeakAndNeverRuns(String provider) {
		start(provider);
		Vault anonymous = client();
		assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> anonymous.open("safe"))
			.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_TOOWEAK));
		assertThat(this.vault.runs).hasValue(0);
		assertThat(this.secured.server().dispatcher().stats().authErrors()).isEqualTo(1);
		// The procedure rule lets anonymous callers peek, on the same connection.
		assertThat(anonymous.peek("safe")).isEqualTo("safe seen");
		assertThat(this.principals).containsExactly(AnonymousPrincipal.INSTANCE);
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void anAuthSysCallRunsAndTheServiceSeesItsUnverifiedPrincipal(String provider) {
		start(provider);
		AuthSys identity = AuthSys.of("build-host", 4242, 100, 7);
		Vault unix = client(CredentialInterceptor.authSys(identity));
		assertThat(unix.open("safe")).isEqualTo("safe opened");
		assertThat(this.principals).singleElement().isInstanceOfSatisfying(AuthSysPrincipal.class, (principal) -> {
			assertThat(principal.uid()).isEqualTo(4242);
			assertThat(principal.machineName()).isEqualTo("build-host");
			assertThat(principal.verified()).isFalse();
		});
		assertThat(this.secured.server().dispatcher().stats().authErrors()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aFlavorTheServerCannotCheckIsABadCredentialAndOthersAreStillServed(String provider) {
		start(provider);
		Vault forged = client((invocation) -> {
			invocation.credential(new RawAuth(AuthFlavor.AUTH_DH, new byte[16]));
			return invocation.proceed();
		});
		assertThatExceptionOfType(AuthenticationException.class).isThrownBy(() -> forged.peek("safe"))
			.satisfies((ex) -> assertThat(ex.authStat()).isEqualTo(AuthStat.AUTH_BADCRED));
		Vault unix = client(CredentialInterceptor.authSys(AuthSys.of("other-host", 7, 7)));
		assertThat(unix.open("safe")).isEqualTo("safe opened");
		assertThat(this.vault.runs).hasValue(1);
	}

	private void start(String providerName) {
		RpcServerInterceptor recorder = (invocation) -> {
			this.principals.add(invocation.principal());
			return invocation.proceed();
		};
		this.secured = SecuredServer.start(providerName, POLICY, this.vault, recorder);
	}

	private Vault client(RpcClientInterceptor... interceptors) {
		return this.secured.proxy(Vault.class, this.secured.clients(), DEADLINE, interceptors);
	}

}
