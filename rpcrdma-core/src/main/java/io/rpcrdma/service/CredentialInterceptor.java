package io.rpcrdma.service;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.OpaqueAuth;

/**
 * Makes every call of a client carry one credential (RFC 5531 §8.2), for example the AUTH_SYS
 * identity of this process: the client half of a server's
 * {@link io.rpcrdma.server.security.SecurityPolicy}. An interceptor further in may still
 * replace it for one call.
 *
 * @param credential what each call carries
 */
public record CredentialInterceptor(OpaqueAuth credential) implements RpcClientInterceptor {

	/** Checks the credential is there. */
	public CredentialInterceptor {
		Objects.requireNonNull(credential, "credential");
	}

	/**
	 * AUTH_SYS with this process's user and groups (from the operating system, through the
	 * JDK's {@code com.sun.security.auth.module.UnixSystem}) and this host's name.
	 * @return the interceptor
	 * @throws IllegalStateException if the platform has no Unix user ids; name them with
	 * {@link #authSys(AuthSys)}
	 */
	public static CredentialInterceptor authSysOfThisProcess() {
		return new CredentialInterceptor(processCredential());
	}

	/**
	 * AUTH_SYS with the given identity.
	 * @param credential the uid, gid, groups and machine name to assert
	 * @return the interceptor
	 */
	public static CredentialInterceptor authSys(AuthSys credential) {
		return new CredentialInterceptor(credential);
	}

	@Override
	public Object intercept(ClientInvocation invocation) throws Throwable {
		invocation.credential(this.credential);
		return invocation.proceed();
	}

	/**
	 * The AUTH_SYS credential of this process: effective uid and gid, at most 16 supplementary
	 * groups (RFC 5531 Appendix A; the rest are left out, as Linux's client does), the host name.
	 * @return the credential
	 * @throws IllegalStateException if the platform has no Unix user ids
	 */
	public static AuthSys processCredential() {
		com.sun.security.auth.module.UnixSystem unix;
		try {
			unix = new com.sun.security.auth.module.UnixSystem();
		}
		catch (UnsatisfiedLinkError | RuntimeException ex) {
			throw new IllegalStateException("This platform has no Unix user and group ids to send as AUTH_SYS ("
					+ ex.getMessage() + "); give the uid and gid explicitly", ex);
		}
		long[] groups = unix.getGroups();
		int count = (groups != null) ? Math.min(groups.length, AuthSys.MAX_GIDS) : 0;
		int[] gids = new int[count];
		for (int i = 0; i < count; i++) {
			gids[i] = (int) groups[i];
		}
		return new AuthSys(0, hostName(), (int) unix.getUid(), (int) unix.getGid(), gids);
	}

	private static String hostName() {
		String name;
		try {
			name = InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			name = "localhost";
		}
		// RFC 5531 Appendix A bounds machinename to 255 bytes; a longer FQDN keeps its first label.
		if (name.length() > AuthSys.MAX_MACHINE_NAME_LENGTH) {
			int dot = name.indexOf('.');
			name = (dot > 0 && dot <= AuthSys.MAX_MACHINE_NAME_LENGTH) ? name.substring(0, dot)
					: name.substring(0, AuthSys.MAX_MACHINE_NAME_LENGTH);
		}
		return name;
	}

}
