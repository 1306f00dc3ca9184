package io.rpcrdma.spring.boot.autoconfigure.security;

import java.util.List;

import io.rpcrdma.server.security.AnonymousPrincipal;
import io.rpcrdma.server.security.RpcPrincipal;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.service.RpcServerInterceptor;
import io.rpcrdma.service.ServerInvocation;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;

/**
 * Puts the caller of each call into Spring Security's {@link SecurityContext} while the
 * exported method runs, and puts back what the thread held before, so method security
 * ({@code @PreAuthorize}, {@code @Secured}) applies to {@code @RpcService} methods as it does
 * to controllers. An AUTH_NONE caller is Spring Security's anonymous user
 * ({@code ROLE_ANONYMOUS}); every other caller an {@link RpcAuthenticationToken}. A method
 * that returns a future has the context while it runs, not in the work it hands on.
 */
public final class RpcSecurityContextInterceptor implements RpcServerInterceptor {

	/** The key Spring Security's anonymous tokens of rpcrdma carry. */
	static final String ANONYMOUS_KEY = "rpcrdma";

	private static final List<SimpleGrantedAuthority> ANONYMOUS_AUTHORITIES = List
		.of(new SimpleGrantedAuthority("ROLE_ANONYMOUS"), new SimpleGrantedAuthority("RPC_FLAVOR_NONE"));

	private final boolean trustAuthSys;

	private final SecurityContextHolderStrategy holder;

	/**
	 * @param trustAuthSys whether AUTH_SYS callers count as authenticated
	 */
	public RpcSecurityContextInterceptor(boolean trustAuthSys) {
		this(trustAuthSys, SecurityContextHolder.getContextHolderStrategy());
	}

	RpcSecurityContextInterceptor(boolean trustAuthSys, SecurityContextHolderStrategy holder) {
		this.trustAuthSys = trustAuthSys;
		this.holder = holder;
	}

	@Override
	public Object intercept(ServerInvocation invocation) throws Throwable {
		SecurityContext previous = this.holder.getContext();
		SecurityContext context = this.holder.createEmptyContext();
		context.setAuthentication(authentication(invocation.principal()));
		this.holder.setContext(context);
		try {
			return invocation.proceed();
		}
		finally {
			this.holder.setContext(previous);
		}
	}

	Authentication authentication(RpcPrincipal principal) {
		if (principal == AnonymousPrincipal.INSTANCE) {
			return new AnonymousAuthenticationToken(ANONYMOUS_KEY, principal, ANONYMOUS_AUTHORITIES);
		}
		boolean trusted = principal.verified() || (this.trustAuthSys && principal.flavor() == SecurityFlavor.SYS);
		return new RpcAuthenticationToken(principal, trusted);
	}

}
