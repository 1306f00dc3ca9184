package io.rpcrdma.spring.boot.autoconfigure.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;

import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.server.security.AuthSysPrincipal;
import io.rpcrdma.server.security.GssPrincipal;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.RpcPrincipal;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ServerInvocation;
import io.rpcrdma.service.ServiceDescriptor;

/**
 * The interceptor leaves the thread's security context as it found it, whether the method
 * returns or throws: service threads are pooled, and a caller left behind would be the next
 * call's identity.
 */
class RpcSecurityContextInterceptorTest {

	private static final RpcPrincipal TELLER = new AuthSysPrincipal(AuthSys.of("till-1", 4242, 100));

	private final RpcSecurityContextInterceptor interceptor = new RpcSecurityContextInterceptor(false);

	@AfterEach
	void clear() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void theCallerIsInTheContextOnlyWhileTheMethodRuns() throws Throwable {
		SecurityContext before = SecurityContextHolder.createEmptyContext();
		before.setAuthentication(new TestingAuthenticationToken("thread-owner", null));
		SecurityContextHolder.setContext(before);
		Object result = this.interceptor.intercept(invocation(() -> {
			Authentication during = SecurityContextHolder.getContext().getAuthentication();
			return during.getPrincipal();
		}));
		assertThat(result).isEqualTo(TELLER);
		assertThat(SecurityContextHolder.getContext()).isSameAs(before);
	}

	@Test
	void theContextIsPutBackWhenTheMethodThrows() {
		SecurityContext before = SecurityContextHolder.getContext();
		assertThatIllegalStateException().isThrownBy(() -> this.interceptor.intercept(invocation(() -> {
			throw new IllegalStateException("refused inside");
		})));
		assertThat(SecurityContextHolder.getContext()).isSameAs(before);
		assertThat(SecurityContextHolder.getContext().getAuthentication()).isNull();
	}

	@Test
	void authSysIsAuthenticatedOnlyWhenTrusted() {
		assertThat(new RpcSecurityContextInterceptor(false).authentication(TELLER).isAuthenticated()).isFalse();
		assertThat(new RpcSecurityContextInterceptor(true).authentication(TELLER).isAuthenticated()).isTrue();
	}

	@Test
	void aKerberosCallerIsAuthenticatedWithItsFlavorAsAuthority() {
		Authentication kerberos = this.interceptor.authentication(new GssPrincipal("alice@EXAMPLE.COM", SecurityFlavor.KRB5));
		assertThat(kerberos.isAuthenticated()).isTrue();
		assertThat(kerberos.getName()).isEqualTo("alice@EXAMPLE.COM");
		assertThat(kerberos.getAuthorities()).extracting(GrantedAuthority::getAuthority).containsExactly("RPC_FLAVOR_KRB5");
	}

	private static ServerInvocation invocation(Callable<Object> method) {
		return new ServerInvocation() {

			private final Map<String, Object> attributes = new HashMap<>();

			@Override
			public ServiceDescriptor service() {
				return null;
			}

			@Override
			public ProcedureDescriptor procedure() {
				return null;
			}

			@Override
			public Object[] arguments() {
				return new Object[0];
			}

			@Override
			public OpaqueAuth credential() {
				return ((AuthSysPrincipal) TELLER).credential();
			}

			@Override
			public RpcPrincipal principal() {
				return TELLER;
			}

			@Override
			public String caller() {
				return "127.0.0.1";
			}

			@Override
			public Map<String, Object> attributes() {
				return this.attributes;
			}

			@Override
			public Object proceed() throws Throwable {
				return method.call();
			}

		};
	}

}
