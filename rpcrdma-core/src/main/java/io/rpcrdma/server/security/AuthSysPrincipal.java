package io.rpcrdma.server.security;

import java.util.Objects;

import io.rpcrdma.oncrpc.AuthSys;

/**
 * The caller of an AUTH_SYS call: the uid, gid and groups its credential asserts (RFC 5531
 * Appendix A). Never {@link #verified()}: any client can put any uid there, so a service that
 * decides access on it trusts the network and every host on it.
 *
 * @param credential the credential as it came
 */
public record AuthSysPrincipal(AuthSys credential) implements RpcPrincipal {

	/** Checks the credential is there. */
	public AuthSysPrincipal {
		Objects.requireNonNull(credential, "credential");
	}

	/** @return {@code uid@machinename}, the uid unsigned */
	@Override
	public String getName() {
		return Integer.toUnsignedString(this.credential.uid()) + "@" + this.credential.machineName();
	}

	/** @return the asserted user id, as 32 unsigned bits in an int */
	public int uid() {
		return this.credential.uid();
	}

	/** @return the asserted group id */
	public int gid() {
		return this.credential.gid();
	}

	/** @return the asserted supplementary groups, a copy */
	public int[] gids() {
		return this.credential.gids();
	}

	/** @return the host name the caller gave */
	public String machineName() {
		return this.credential.machineName();
	}

	@Override
	public SecurityFlavor flavor() {
		return SecurityFlavor.SYS;
	}

	@Override
	public boolean verified() {
		return false;
	}

	@Override
	public String toString() {
		return "uid " + getName() + " (AUTH_SYS, unverified)";
	}

}
