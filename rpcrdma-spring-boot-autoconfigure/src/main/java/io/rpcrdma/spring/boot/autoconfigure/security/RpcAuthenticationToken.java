package io.rpcrdma.spring.boot.autoconfigure.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.rpcrdma.server.security.AuthSysPrincipal;
import io.rpcrdma.server.security.RpcPrincipal;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * The caller of an RPC as Spring Security sees it during an exported method: its
 * {@link RpcPrincipal}, authenticated only when the flavor verified it (or, for AUTH_SYS, when
 * {@code rpcrdma.server.security.trust-auth-sys} says the network is trusted). Authorities:
 * {@code RPC_FLAVOR_<flavor>}, and for a trusted AUTH_SYS caller {@code RPC_UID_<uid>} and
 * {@code RPC_GID_<gid>} for the primary and every supplementary group (unsigned decimal). An
 * untrusted AUTH_SYS caller gets no uid or gid authority: Spring Security's
 * {@code hasAuthority} would otherwise grant on an identity nobody checked.
 */
public final class RpcAuthenticationToken extends AbstractAuthenticationToken {

	private static final long serialVersionUID = 1L;

	private final RpcPrincipal principal;

	/**
	 * @param principal the caller
	 * @param trusted whether to count it as authenticated
	 */
	public RpcAuthenticationToken(RpcPrincipal principal, boolean trusted) {
		super(authorities(principal, trusted));
		this.principal = principal;
		setAuthenticated(trusted);
	}

	@Override
	public RpcPrincipal getPrincipal() {
		return this.principal;
	}

	/** @return nothing: the credential stays with the call */
	@Override
	public Object getCredentials() {
		return null;
	}

	/**
	 * The flavor's authority always; the uid and gids only when trusted, since Spring
	 * Security's {@code hasAuthority} does not ask whether the token is authenticated.
	 */
	static Collection<GrantedAuthority> authorities(RpcPrincipal principal, boolean trusted) {
		List<GrantedAuthority> authorities = new ArrayList<>();
		authorities.add(new SimpleGrantedAuthority("RPC_FLAVOR_" + principal.flavor().name()));
		if (trusted && principal instanceof AuthSysPrincipal sys) {
			authorities.add(new SimpleGrantedAuthority("RPC_UID_" + Integer.toUnsignedString(sys.uid())));
			authorities.add(new SimpleGrantedAuthority("RPC_GID_" + Integer.toUnsignedString(sys.gid())));
			for (int gid : sys.gids()) {
				authorities.add(new SimpleGrantedAuthority("RPC_GID_" + Integer.toUnsignedString(gid)));
			}
		}
		return authorities;
	}

}
