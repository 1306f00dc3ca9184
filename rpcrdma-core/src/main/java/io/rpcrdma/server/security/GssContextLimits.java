package io.rpcrdma.server.security;

import java.time.Duration;
import java.util.Objects;

import io.rpcrdma.log.Durations;

/**
 * How many RPCSEC_GSS contexts a server holds, and for how long (ARCHITECTURE.md, "Memory":
 * every budget gives each peer a bounded share). A context costs the server a Kerberos session
 * and its sequence window until it is destroyed (RFC 2203 §5.4), its connection closes, or it
 * gives way; without a share per peer, one principal of the realm could fill the table with
 * RPCSEC_GSS_INIT calls and lock every other client out.
 * @param maxContexts the most contexts held in all, in creation or established
 * @param maxPerConnection the most one connection may hold (those of a call over no connection
 * count against its client's host); above {@code maxContexts} it changes nothing
 * @param maxPerPrincipal the most established contexts of one Kerberos principal, over all its
 * connections; above {@code maxContexts} it changes nothing
 * @param creationTimeout how long a context may stay in creation (RFC 2203 §5.2.2: an INIT or
 * CONTINUE_INIT whose GSS exchange is not complete, or whose step still waits for the
 * server's executor) before it is forgotten
 * @param idleLimit how long an established context may go unused before it gives way to a new
 * one, even when its holder has no more than its share
 */
public record GssContextLimits(int maxContexts, int maxPerConnection, int maxPerPrincipal, Duration creationTimeout,
		Duration idleLimit) {

	/**
	 * 1024 contexts in all, 16 per connection (a client makes one per connection and principal,
	 * and one more each time its service ticket ends), 256 per principal (a service's pools on
	 * many hosts share one principal), 30 seconds to finish creation (a Kerberos context takes
	 * one round trip; FreeBSD's svc_rpcsec_gss gives a context in creation 5 minutes), an hour
	 * unused.
	 */
	public static final GssContextLimits DEFAULTS = new GssContextLimits(1024, 16, 256, Duration.ofSeconds(30),
			Duration.ofHours(1));

	/** Validates. */
	public GssContextLimits {
		Objects.requireNonNull(creationTimeout, "creationTimeout");
		Objects.requireNonNull(idleLimit, "idleLimit");
		if (maxContexts < 1 || maxPerConnection < 1 || maxPerPrincipal < 1) {
			throw new IllegalArgumentException("RPCSEC_GSS context limits must be at least 1, not " + maxContexts
					+ " in all, " + maxPerConnection + " per connection and " + maxPerPrincipal + " per principal");
		}
		if (creationTimeout.isNegative() || creationTimeout.isZero()) {
			throw new IllegalArgumentException(
					"the RPCSEC_GSS context creation timeout must be positive, not " + Durations.written(creationTimeout));
		}
		if (idleLimit.isNegative()) {
			throw new IllegalArgumentException("the RPCSEC_GSS context idle limit must not be negative, not " + Durations.written(idleLimit));
		}
	}

	/**
	 * @param value the most contexts held in all
	 * @return these limits with it
	 */
	public GssContextLimits withMaxContexts(int value) {
		return new GssContextLimits(value, this.maxPerConnection, this.maxPerPrincipal, this.creationTimeout,
				this.idleLimit);
	}

	/**
	 * @param value the most contexts one connection may hold
	 * @return these limits with it
	 */
	public GssContextLimits withMaxPerConnection(int value) {
		return new GssContextLimits(this.maxContexts, value, this.maxPerPrincipal, this.creationTimeout,
				this.idleLimit);
	}

	/**
	 * @param value the most established contexts of one principal
	 * @return these limits with it
	 */
	public GssContextLimits withMaxPerPrincipal(int value) {
		return new GssContextLimits(this.maxContexts, this.maxPerConnection, value, this.creationTimeout,
				this.idleLimit);
	}

	/**
	 * @param value how long a context may stay in creation
	 * @return these limits with it
	 */
	public GssContextLimits withCreationTimeout(Duration value) {
		return new GssContextLimits(this.maxContexts, this.maxPerConnection, this.maxPerPrincipal, value,
				this.idleLimit);
	}

	/**
	 * @param value how long an established context may go unused before it gives way
	 * @return these limits with it
	 */
	public GssContextLimits withIdleLimit(Duration value) {
		return new GssContextLimits(this.maxContexts, this.maxPerConnection, this.maxPerPrincipal,
				this.creationTimeout, value);
	}

}
