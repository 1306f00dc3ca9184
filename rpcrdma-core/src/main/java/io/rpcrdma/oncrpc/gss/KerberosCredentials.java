package io.rpcrdma.oncrpc.gss;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import javax.security.auth.Subject;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.Oid;

/**
 * Kerberos credentials for RPCSEC_GSS through the JDK's own Kerberos (JAAS's
 * {@code Krb5LoginModule} and JGSS): a principal logged in from a keytab, or from a ticket
 * cache such as {@code kinit} fills. No global JAAS file and no system property is needed;
 * the realm and KDC come from the JDK's {@code krb5.conf} ({@code java.security.krb5.conf}).
 */
public final class KerberosCredentials {

	/** The Kerberos V5 mechanism (RFC 1964, RFC 4121). */
	public static final Oid KRB5_MECHANISM = oid("1.2.840.113554.1.2.2");

	private static final String KRB5_LOGIN_MODULE = "com.sun.security.auth.module.Krb5LoginModule";

	private final Subject subject;

	private final String principal;

	private final boolean acceptor;

	private KerberosCredentials(Subject subject, String principal, boolean acceptor) {
		this.subject = subject;
		this.principal = principal;
		this.acceptor = acceptor;
	}

	/**
	 * Logs a service in from its keytab, to accept contexts (a server).
	 * @param principal the service principal, e.g. {@code rpcrdma/host.example.com@EXAMPLE.COM}
	 * @param keytab the keytab holding its keys
	 * @return the credentials
	 * @throws KerberosLoginException if the keytab is missing or holds no key for the principal
	 */
	public static KerberosCredentials acceptorFromKeytab(String principal, Path keytab) {
		return login(principal, keytab, null, true);
	}

	/**
	 * Logs a user or service in from a keytab, to initiate contexts (a client).
	 * @param principal the client principal, e.g. {@code alice@EXAMPLE.COM}
	 * @param keytab the keytab holding its keys
	 * @return the credentials
	 * @throws KerberosLoginException if the login fails (unknown principal or realm, no KDC,
	 * clock skew); the message says which
	 */
	public static KerberosCredentials initiatorFromKeytab(String principal, Path keytab) {
		return login(principal, keytab, null, false);
	}

	/**
	 * Uses the tickets in a ticket cache (what {@code kinit} obtained), to initiate contexts.
	 * @param principal the principal whose tickets to use, or {@code null} for the cache's
	 * @param cache the cache file, or {@code null} for the default ({@code KRB5CCNAME} or
	 * {@code /tmp/krb5cc_<uid>})
	 * @return the credentials
	 * @throws KerberosLoginException if the cache holds no usable ticket
	 */
	public static KerberosCredentials initiatorFromTicketCache(String principal, Path cache) {
		return login(principal, null, cache, false);
	}

	private static KerberosCredentials login(String principal, Path keytab, Path cache, boolean acceptor) {
		Map<String, String> options = new HashMap<>();
		options.put("doNotPrompt", "true");
		options.put("refreshKrb5Config", "true");
		options.put("isInitiator", Boolean.toString(!acceptor));
		if (principal != null) {
			options.put("principal", principal);
		}
		if (keytab != null) {
			if (!Files.isReadable(keytab)) {
				throw new KerberosLoginException("The keytab " + keytab + " for " + principal
						+ " cannot be read; create it with kadmin's ktadd and make it readable by this process");
			}
			options.put("useKeyTab", "true");
			options.put("keyTab", keytab.toString());
			options.put("storeKey", "true");
		}
		else {
			options.put("useTicketCache", "true");
			if (cache != null) {
				options.put("ticketCache", cache.toString());
			}
		}
		Configuration configuration = new Configuration() {
			@Override
			public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
				return new AppConfigurationEntry[] { new AppConfigurationEntry(KRB5_LOGIN_MODULE,
						AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options) };
			}
		};
		Subject subject = new Subject();
		try {
			LoginContext login = new LoginContext("rpcrdma", subject, null, configuration);
			login.login();
		}
		catch (LoginException ex) {
			throw new KerberosLoginException(explain(principal, keytab, cache, ex), ex);
		}
		String name = subject.getPrincipals().stream().map(java.security.Principal::getName).findFirst().orElse(principal);
		return new KerberosCredentials(subject, name, acceptor);
	}

	/** Says what a failed login needs, from the Kerberos error in the exception. */
	static String explain(String principal, Path keytab, Path cache, Exception ex) {
		String source = (keytab != null) ? "keytab " + keytab : "ticket cache " + ((cache != null) ? cache : "(default)");
		String cause = String.valueOf(ex.getMessage());
		String hint;
		if (cause.contains("Clock skew")) {
			hint = "this host's clock and the KDC's differ by more than the allowed skew (5 minutes by default); synchronise them";
		}
		else if (cause.contains("not found in Kerberos database") || cause.contains("CLIENT_NOT_FOUND")) {
			hint = "the KDC does not know the principal; check its name and realm";
		}
		else if (cause.contains("Cannot locate KDC") || cause.contains("Cannot get kdc") || cause.contains("Receive timed out")
				|| cause.contains("Connection refused")) {
			hint = "no KDC answers for the realm; check java.security.krb5.conf (or /etc/krb5.conf) and that the KDC runs";
		}
		else if (cause.contains("Unable to obtain password") || cause.contains("Unable to obtain Principal Name")
				|| cause.contains("No valid credentials")) {
			hint = (keytab != null)
					? "the keytab holds no key for that principal: compare its name and realm with what 'klist -k " + keytab
							+ "' lists, or recreate the keytab"
					: "the ticket cache holds no ticket for that principal: run kinit";
		}
		else {
			hint = "check the principal, the " + source + " and krb5.conf";
		}
		return "Kerberos login of " + ((principal != null) ? principal : "the default principal") + " from the " + source
				+ " failed: " + cause + "; " + hint;
	}

	/** @return the principal logged in */
	public String principal() {
		return this.principal;
	}

	/** @return whether these credentials accept contexts (a server) rather than initiate them */
	public boolean acceptor() {
		return this.acceptor;
	}

	/**
	 * Runs JGSS work as the logged-in principal.
	 * @param <T> what it returns
	 * @param action the work
	 * @return its result
	 * @throws GSSException what the work threw
	 */
	@SuppressWarnings("removal")
	<T> T as(PrivilegedExceptionAction<T> action) throws GSSException {
		try {
			return Subject.doAs(this.subject, action);
		}
		catch (PrivilegedActionException ex) {
			if (ex.getException() instanceof GSSException gss) {
				throw gss;
			}
			throw new KerberosLoginException("JGSS failed for " + this.principal + ": " + ex.getException(),
					ex.getException());
		}
	}

	/** @return a JGSS credential of this principal, for its role */
	GSSCredential gssCredential() throws GSSException {
		return as(() -> {
			GSSManager manager = GSSManager.getInstance();
			GSSName name = this.acceptor ? null : manager.createName(this.principal, GSSName.NT_USER_NAME);
			return manager.createCredential(name, GSSCredential.INDEFINITE_LIFETIME, KRB5_MECHANISM,
					this.acceptor ? GSSCredential.ACCEPT_ONLY : GSSCredential.INITIATE_ONLY);
		});
	}

	@Override
	public String toString() {
		return "KerberosCredentials[" + this.principal + (this.acceptor ? ", acceptor" : ", initiator") + "]";
	}

	private static Oid oid(String value) {
		try {
			return new Oid(Objects.requireNonNull(value));
		}
		catch (GSSException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

}
