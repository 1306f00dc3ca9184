package io.rpcrdma.transport;

/**
 * How many connections a server holds at once, from one peer and in all. Every accepted
 * connection holds a queue pair of the provider's (siw allows 16,384) and tens of KiB of
 * heap and receives: without a cap one peer could open as many as the provider allows and
 * lock every other requester out (RFC 8166 §8, RFC 5042 §5: a peer must not exhaust what all
 * connections share). A peer is the requester's IP address, not its port: every connection
 * from one host, or from all hosts behind one NAT address, counts towards one peer's cap; an
 * IPv6 address is one peer, so a host that rotates through its /64 counts as many (the total
 * cap still bounds it).
 *
 * @param perPeer the most connections one peer address holds at once
 * @param total the most connections the server holds at once
 */
public record ConnectionLimits(int perPeer, int total) {

	/**
	 * Default {@link #perPeer()}: 256. A client pool opens 4 connections per server address per
	 * named client and Linux NFS's {@code nconnect} at most 16, so a host with dozens of named
	 * clients stays far below it.
	 */
	public static final int DEFAULT_PER_PEER = 256;

	/**
	 * Default {@link #total()}: 16,384, siw's default {@code siw.max-queue-pairs}: issue #34's
	 * 10,000 idle connections to one server fit with room.
	 */
	public static final int DEFAULT_TOTAL = 16_384;

	/** The defaults. */
	public static final ConnectionLimits DEFAULTS = new ConnectionLimits(DEFAULT_PER_PEER, DEFAULT_TOTAL);

	/**
	 * Validates the limits.
	 * @throws IllegalArgumentException if either is not positive, or the per-peer cap exceeds
	 * the total
	 */
	public ConnectionLimits {
		if (perPeer < 1 || total < 1) {
			throw new IllegalArgumentException("Connection caps must be positive, got " + perPeer + " per peer and "
					+ total + " in all");
		}
		if (perPeer > total) {
			throw new IllegalArgumentException("The per-peer connection cap (" + perPeer
					+ ") cannot exceed the total one (" + total + ")");
		}
	}

}
