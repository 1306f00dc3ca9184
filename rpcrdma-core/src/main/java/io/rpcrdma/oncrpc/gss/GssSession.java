package io.rpcrdma.oncrpc.gss;

import java.time.Instant;
import java.util.Objects;

import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.MessageProp;

/**
 * One Kerberos GSS-API security context, from either end: the tokens of its establishment
 * (RFC 2203 §5.2, carried by RPCSEC_GSS_INIT and CONTINUE_INIT), then the per-message
 * operations RPCSEC_GSS uses: MICs for verifiers and integrity (RFC 2203 §5.3.1, §5.3.2.2),
 * wrapping for privacy (§5.3.2.3). JGSS through the JDK, Kerberos V5 mechanism, QOP 0.
 * <p>
 * Per-message operations are serialised: a Kerberos context keeps sequence state.
 */
public final class GssSession implements AutoCloseable {

	private final KerberosCredentials credentials;

	private final GSSContext context;

	/**
	 * When an initiator's context ends (epoch milliseconds), taken from its login once
	 * established; {@link Long#MAX_VALUE} until then, and for an acceptor.
	 */
	private volatile long endsMillis = Long.MAX_VALUE;

	private GssSession(KerberosCredentials credentials, GSSContext context) {
		this.credentials = credentials;
		this.context = context;
	}

	/**
	 * Starts a context to a service, as its client.
	 * @param client the client's credentials
	 * @param service the service as {@code service@host} (GSS host-based service name, RFC 2743
	 * §4.1), e.g. {@code rpcrdma@server.example.com} for the principal
	 * {@code rpcrdma/server.example.com@REALM}
	 * @return the session, not established until {@link #step} says so
	 * @throws GssFailureException if JGSS refuses
	 */
	public static GssSession initiate(KerberosCredentials client, String service) {
		Objects.requireNonNull(service, "service");
		try {
			GSSContext context = client.as(() -> {
				GSSManager manager = GSSManager.getInstance();
				GSSName target = manager.createName(service, GSSName.NT_HOSTBASED_SERVICE);
				GSSContext created = manager.createContext(target, KerberosCredentials.KRB5_MECHANISM,
						client.gssCredential(), GSSContext.DEFAULT_LIFETIME);
				// RFC 2203 §5.2.2: the server proves itself too, and integrity and privacy are asked.
				created.requestMutualAuth(true);
				created.requestInteg(true);
				created.requestConf(true);
				created.requestReplayDet(false);
				created.requestSequenceDet(false);
				return created;
			});
			return new GssSession(client, context);
		}
		catch (GSSException ex) {
			throw new GssFailureException("Cannot start a GSS context to " + service + " as " + client.principal(), ex);
		}
	}

	/**
	 * Starts a context as the service accepting it.
	 * @param server the service's credentials
	 * @return the session
	 * @throws GssFailureException if JGSS refuses
	 */
	public static GssSession accept(KerberosCredentials server) {
		try {
			GSSContext context = server
				.as(() -> GSSManager.getInstance().createContext(server.gssCredential()));
			return new GssSession(server, context);
		}
		catch (GSSException ex) {
			throw new GssFailureException("Cannot accept GSS contexts as " + server.principal(), ex);
		}
	}

	/**
	 * One step of establishment: the initiator's first call passes an empty token.
	 * @param token the peer's token
	 * @return the token to send, empty if none
	 * @throws GssFailureException with the GSS major status if the token is refused, also when
	 * JGSS fails on it with an unchecked exception (GSS_S_DEFECTIVE_TOKEN)
	 */
	public synchronized byte[] step(byte[] token) {
		try {
			byte[] out = this.credentials.as(() -> this.credentials.acceptor()
					? this.context.acceptSecContext(token, 0, token.length)
					: this.context.initSecContext(token, 0, token.length));
			if (!this.credentials.acceptor() && this.context.isEstablished() && this.endsMillis == Long.MAX_VALUE) {
				// The service ticket this context was made with is in the login now.
				this.endsMillis = this.credentials.ticketEnd(target()).map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
			}
			return (out != null) ? out : new byte[0];
		}
		catch (GSSException ex) {
			throw new GssFailureException("GSS context establishment failed", ex);
		}
		catch (KerberosLoginException ex) {
			// Our own login, not the peer's token.
			throw ex;
		}
		catch (RuntimeException ex) {
			// A forged token must cost the peer its context, not the server a context slot
			// and a SYSTEM_ERR: whatever JGSS throws on the peer's bytes is a refused token.
			throw GssFailureException.defectiveToken("GSS context establishment failed", ex);
		}
	}

	/** @return whether the context is established */
	public boolean established() {
		return this.context.isEstablished();
	}

	/**
	 * A Kerberos context lives as long as the service ticket it was made with. JDK's Kerberos
	 * reports every context as never expiring ({@code GSSContext#getLifetime} is
	 * {@code INDEFINITE_LIFETIME}), so the initiator takes the end of its service ticket (or of
	 * its ticket-granting ticket, which no service ticket outlives) from its login when the
	 * context is established. An acceptor cannot see it (JDK's {@code KRB5_GET_KRB_CRED} is
	 * initiator-only): for one this is always {@code false}, and expiry is the client's to notice.
	 * @return whether this initiator's context is known to have ended
	 */
	public boolean expired() {
		// Not synchronized, and allocation-free: every call asks, and must not wait behind
		// another call's wrap.
		return System.currentTimeMillis() >= this.endsMillis;
	}

	/** The service's principal as Kerberos names it, or {@code null} if JGSS will not say. */
	private String target() {
		try {
			return this.context.getTargName().canonicalize(KerberosCredentials.KRB5_MECHANISM).toString();
		}
		catch (GSSException ex) {
			return null;
		}
	}

	/**
	 * @return the other end: the client's principal for an acceptor, the service as the
	 * initiator named it ({@code service@host}) for an initiator, which mutual authentication
	 * proved
	 * @throws GssFailureException if the context is not established
	 */
	public synchronized String peer() {
		try {
			return (this.credentials.acceptor() ? this.context.getSrcName() : this.context.getTargName()).toString();
		}
		catch (GSSException ex) {
			throw new GssFailureException("The peer of a GSS context is not known before it is established", ex);
		}
	}

	/**
	 * GSS_GetMIC (RFC 2743 §2.3.1) with QOP 0.
	 * @param data the bytes
	 * @param offset where they start
	 * @param length how many
	 * @return the MIC token
	 * @throws GssFailureException if the context cannot make one (expired)
	 */
	public synchronized byte[] mic(byte[] data, int offset, int length) {
		try {
			return this.context.getMIC(data, offset, length, new MessageProp(0, false));
		}
		catch (GSSException ex) {
			throw new GssFailureException("GSS_GetMIC failed", ex);
		}
	}

	/**
	 * GSS_VerifyMIC (RFC 2743 §2.3.2).
	 * @param data the bytes
	 * @param offset where they start
	 * @param length how many
	 * @param mic the MIC token that came with them
	 * @return whether it matches; a token that is not a MIC at all does not
	 */
	public synchronized boolean verifyMic(byte[] data, int offset, int length, byte[] mic) {
		try {
			MessageProp prop = new MessageProp(0, false);
			this.context.verifyMIC(mic, 0, mic.length, data, offset, length, prop);
			// Duplicate and old tokens are RPCSEC_GSS's own business (its sequence window),
			// but a MIC that fails or is forged is not.
			return true;
		}
		catch (GSSException | RuntimeException ex) {
			// A peer's token JGSS fails on with an unchecked exception does not verify either.
			return false;
		}
	}

	/**
	 * GSS_Wrap (RFC 2743 §2.3.3) with confidentiality.
	 * @param data the bytes
	 * @param offset where they start
	 * @param length how many
	 * @return the wrapped token
	 * @throws GssFailureException if the context cannot wrap
	 */
	public synchronized byte[] wrap(byte[] data, int offset, int length) {
		try {
			return this.context.wrap(data, offset, length, new MessageProp(0, true));
		}
		catch (GSSException ex) {
			throw new GssFailureException("GSS_Wrap failed", ex);
		}
	}

	/**
	 * GSS_Unwrap (RFC 2743 §2.3.4), insisting on confidentiality.
	 * @param token the wrapped token
	 * @return the bytes, or {@code null} if the token does not unwrap or was not encrypted
	 */
	public synchronized byte[] unwrap(byte[] token) {
		try {
			MessageProp prop = new MessageProp(0, true);
			byte[] data = this.context.unwrap(token, 0, token.length, prop);
			return prop.getPrivacy() ? data : null;
		}
		catch (GSSException | RuntimeException ex) {
			// A peer's token JGSS fails on with an unchecked exception does not unwrap either.
			return null;
		}
	}

	/** Disposes of the context (RFC 2743 §2.2.3). */
	@Override
	public synchronized void close() {
		try {
			this.context.dispose();
		}
		catch (GSSException ex) {
			// Nothing holds on to a disposed context; there is nothing else to release.
		}
	}

}
