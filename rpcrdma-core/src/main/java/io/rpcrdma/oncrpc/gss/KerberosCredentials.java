package io.rpcrdma.oncrpc.gss;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;
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

	/** The shortest time before a ticket-granting ticket ends at which it is renewed. */
	private static final Duration MIN_RENEWAL_MARGIN = Duration.ofSeconds(1);

	/** The longest: a day-long ticket is renewed a minute before it ends. */
	private static final Duration MAX_RENEWAL_MARGIN = Duration.ofMinutes(1);

	private final Login login;

	private volatile Subject subject;

	private final String principal;

	private final boolean acceptor;

	private final AtomicInteger logins = new AtomicInteger(1);

	private KerberosCredentials(Login login, Subject subject, String principal, boolean acceptor) {
		this.login = login;
		this.subject = subject;
		this.principal = principal;
		this.acceptor = acceptor;
	}

	/** How the principal logged in, to log in again when its ticket-granting ticket ends. */
	private record Login(String principal, Path keytab, Path cache, boolean acceptor) {
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
		Login login = new Login(principal, keytab, cache, acceptor);
		Subject subject = subject(login);
		String name = subject.getPrincipals().stream().map(java.security.Principal::getName).findFirst().orElse(principal);
		return new KerberosCredentials(login, subject, name, acceptor);
	}

	private static Subject subject(Login login) {
		String principal = login.principal();
		Path keytab = login.keytab();
		Path cache = login.cache();
		boolean acceptor = login.acceptor();
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
			LoginContext context = new LoginContext("rpcrdma", subject, null, configuration);
			context.login();
		}
		catch (LoginException ex) {
			throw new KerberosLoginException(explain(principal, keytab, cache, ex), ex);
		}
		return subject;
	}

	/**
	 * When the ticket-granting ticket of these credentials ends.
	 * @return its end, or empty for an acceptor (which needs none) or when the login holds none
	 */
	public Optional<Instant> ticketGrantingTicketEnd() {
		return ticketGrantingTicket(this.subject).map((ticket) -> ticket.getEndTime().toInstant());
	}

	/**
	 * When the ticket for a service ends: the service ticket this login holds for it, else the
	 * ticket-granting ticket, which no service ticket outlives.
	 * @param service the service's Kerberos principal ({@code service/host@REALM}), or {@code null}
	 * @return the end, or empty when the login holds neither
	 */
	Optional<Instant> ticketEnd(String service) {
		Subject now = this.subject;
		if (service != null) {
			Optional<Instant> serviceTicket = now.getPrivateCredentials(KerberosTicket.class)
				.stream()
				.filter((ticket) -> ticket.getServer().getName().equals(service))
				.map((ticket) -> ticket.getEndTime().toInstant())
				.max(Instant::compareTo);
			if (serviceTicket.isPresent()) {
				return serviceTicket;
			}
		}
		return ticketGrantingTicket(now).map((ticket) -> ticket.getEndTime().toInstant());
	}

	/** @return how many times these credentials logged in: 1, plus one per renewal */
	public int logins() {
		return this.logins.get();
	}

	private static Optional<KerberosTicket> ticketGrantingTicket(Subject subject) {
		for (KerberosTicket ticket : subject.getPrivateCredentials(KerberosTicket.class)) {
			if (ticket.getServer().getName().startsWith("krbtgt/")) {
				return Optional.of(ticket);
			}
		}
		return Optional.empty();
	}

	/**
	 * The subject to run JGSS as: an initiator whose ticket-granting ticket ends within the
	 * renewal margin (a tenth of its lifetime, between 1 s and 1 min) logs in again first, from
	 * its keytab or from its ticket cache (which {@code kinit -R} or a renewal daemon may have
	 * refreshed). Contexts made before keep working until their own service tickets end; the
	 * next context gets a service ticket from the new login.
	 */
	private Subject current() {
		Subject now = this.subject;
		if (this.acceptor || !needsRenewal(now)) {
			return now;
		}
		synchronized (this) {
			if (this.subject == now) {
				this.subject = subject(this.login);
				this.logins.incrementAndGet();
			}
			return this.subject;
		}
	}

	private static boolean needsRenewal(Subject subject) {
		Optional<KerberosTicket> tgt = ticketGrantingTicket(subject);
		if (tgt.isEmpty()) {
			return false;
		}
		Instant start = tgt.get().getStartTime() != null ? tgt.get().getStartTime().toInstant()
				: tgt.get().getAuthTime().toInstant();
		Instant end = tgt.get().getEndTime().toInstant();
		Duration margin = Duration.between(start, end).dividedBy(10);
		if (margin.compareTo(MIN_RENEWAL_MARGIN) < 0) {
			margin = MIN_RENEWAL_MARGIN;
		}
		if (margin.compareTo(MAX_RENEWAL_MARGIN) > 0) {
			margin = MAX_RENEWAL_MARGIN;
		}
		return !Instant.now().plus(margin).isBefore(end);
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
			return Subject.doAs(current(), action);
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
