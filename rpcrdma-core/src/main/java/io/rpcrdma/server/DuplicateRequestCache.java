package io.rpcrdma.server;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;

import io.rpcrdma.xdr.Xdr;

/**
 * Remembers the replies to recent non-idempotent calls so that a retransmission is answered
 * with the original reply instead of executing the procedure a second time (the "duplicate
 * request cache" of NFS servers; ONC RPC itself guarantees no more than at-most-once on a
 * reliable transport, RFC 5531 §8.1). Linux's nfsd ({@code fs/nfsd/nfscache.c}) is the model.
 * <p>
 * <b>Recognising a retransmission.</b> A call is recognised by its {@link CallIdentity}: the
 * requester's host, xid, program, version, procedure, and the length and CRC32C
 * {@link #checksum} of what follows the xid. The host and not its port, because an
 * RPC-over-RDMA requester retransmits only after it reconnected (RFC 8166 §4.2.1: the
 * transport is reliable), on a connection with a new port; Linux keys by port too, and so
 * misses those retransmissions unless the client reconnects from its old port.
 * <p>
 * <b>Owning entries.</b> Each entry belongs to the peer that made it: the whole
 * {@link RequesterAddress}, port included, as Linux keys it. Only a peer's own calls change
 * its entries, so another process on the same host, which can make calls with any xid, can
 * never make a call run twice:
 * <ul>
 * <li>a call whose identity matches an entry is a retransmission, from whichever port of the
 * host: it gets the cached reply, or waits for the running original's, and never executes;</li>
 * <li>a call that reuses the xid of one of its peer's own entries (of the same principal,
 * under RPCSEC_GSS) with another identity is dropped while that entry's call still runs
 * (Linux answers a call in progress with {@code RC_DROPIT}), and replaces the entry once that
 * call is done (the peer's xids wrapped);</li>
 * <li>a call with another peer's xid and another identity is a different call: it gets an
 * entry of its own and leaves the other peer's alone.</li>
 * </ul>
 * An exact copy of another peer's call (same host, xid, arguments and credential) is taken
 * for a retransmission and answered with that call's reply: under AUTH_NONE and AUTH_SYS the
 * server cannot tell it from one, and whoever can make it could make the call itself.
 * <p>
 * <b>Bounds, each a per-peer share.</b> At most {@code maxEntriesPerPeer} entries per peer and
 * {@code maxEntries} in all; cached replies older than {@code ttl} expire. A peer at its own
 * bound gives up its own oldest reply. When the cache is full, a peer takes room from the
 * peer holding the most replies ({@link PeerShares}) only if that one holds at least two more
 * entries than itself, and otherwise gives up its own oldest reply: a flood from one peer, or
 * from many connections, evicts the flooders' replies and never those of a peer holding fewer.
 * Running calls are never evicted; a call that finds no room executes uncached (counted).
 * Replies larger than {@code maxReplyBytes} are not kept.
 * <p>
 * A retransmission of a running call <b>waits for the original's reply</b> rather than being
 * dropped as Linux does: the original's reply most likely went to the connection that was
 * lost, and dropping the retransmission would leave the client to time out. At most
 * {@value #MAX_WAITERS} retransmissions wait on one call; more are dropped.
 * <p>
 * One lock guards the cache: only non-idempotent calls come here, and each holds it for a
 * few map operations.
 */
public final class DuplicateRequestCache {

	/** The most retransmissions that may wait on one in-progress call. */
	public static final int MAX_WAITERS = 4;

	private final int maxEntriesPerPeer;

	private final int maxEntries;

	private final long ttlNanos;

	private final int maxReplyBytes;

	private final LongSupplier nanoClock;

	/** Every entry, by what its call repeats. */
	private final Map<CallIdentity, Entry> calls = new HashMap<>();

	/** Every entry, by its owner, origin and xid: how a peer's reuse of its own xid is found. */
	private final Map<OwnXid, Entry> ownXids = new HashMap<>();

	private final PeerShares shares = new PeerShares();

	/** Cached replies of every peer, oldest first, for the ttl. */
	private Entry head;

	private Entry tail;

	private long hits;

	private long waits;

	private long misses;

	private long evictions;

	private long expirations;

	private long checksumMismatches;

	private long uncached;

	private long dropped;

	/**
	 * A cache keeping replies of up to 64 KiB.
	 * @param maxEntriesPerPeer the most entries one peer (requester address with port) may hold
	 * @param maxEntries the most entries in all, at least {@code maxEntriesPerPeer}
	 * @param ttl how long a cached reply is kept
	 */
	public DuplicateRequestCache(int maxEntriesPerPeer, int maxEntries, Duration ttl) {
		this(maxEntriesPerPeer, maxEntries, ttl, 64 * 1024, System::nanoTime);
	}

	/**
	 * @param maxEntriesPerPeer the most entries one peer (requester address with port) may hold
	 * @param maxEntries the most entries in all, at least {@code maxEntriesPerPeer}
	 * @param ttl how long a cached reply is kept
	 * @param maxReplyBytes the largest reply kept
	 * @param nanoClock the time source for {@code ttl}, {@link System#nanoTime()} but in tests
	 */
	public DuplicateRequestCache(int maxEntriesPerPeer, int maxEntries, Duration ttl, int maxReplyBytes,
			LongSupplier nanoClock) {
		if (maxEntriesPerPeer < 1 || maxEntries < maxEntriesPerPeer) {
			throw new IllegalArgumentException("duplicate request cache bounds must be at least 1 per peer and at"
					+ " least that in all, not " + maxEntriesPerPeer + " per peer and " + maxEntries + " in all");
		}
		if (ttl.isNegative() || ttl.isZero()) {
			throw new IllegalArgumentException("duplicate request cache ttl must be positive, not " + ttl);
		}
		this.maxEntriesPerPeer = maxEntriesPerPeer;
		this.maxEntries = maxEntries;
		this.ttlNanos = ttl.toNanos();
		this.maxReplyBytes = maxReplyBytes;
		this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
	}

	/**
	 * Computes the checksum that tells a retransmission from a new call reusing the xid:
	 * CRC32C over the message after its xid (header, credential and arguments). The buffer's
	 * position and limit are not changed.
	 * @param message an encoded call, from its position (the xid) to its limit
	 * @return the checksum
	 */
	public static int checksum(ByteBuffer message) {
		CRC32C crc = new CRC32C();
		ByteBuffer view = message.duplicate();
		view.position(Math.min(view.limit(), view.position() + Xdr.UNIT));
		crc.update(view);
		return (int) crc.getValue();
	}

	/**
	 * The checksum of an RPCSEC_GSS call (RFC 2203): each transmission carries a new sequence
	 * number (§5.3.3.1), so a retransmission's credential and verifier differ from the
	 * original's, and under integrity or privacy its protected body too. As in Linux's nfsd,
	 * a retransmission is told by what it asks: CRC32C over the program, version, procedure
	 * and the plain arguments. Who asks is the cache key's part ({@link #admit}).
	 * @param program the call's program
	 * @param version its version
	 * @param procedure its procedure
	 * @param arguments the plain arguments (checked out of their protection), from position to
	 * limit; not moved
	 * @return the checksum
	 */
	public static int checksumOfRequest(int program, int version, int procedure, ByteBuffer arguments) {
		CRC32C crc = new CRC32C();
		crc.update(program >>> 24);
		crc.update(program >>> 16);
		crc.update(program >>> 8);
		crc.update(program);
		crc.update(version >>> 24);
		crc.update(version >>> 16);
		crc.update(version >>> 8);
		crc.update(version);
		crc.update(procedure >>> 24);
		crc.update(procedure >>> 16);
		crc.update(procedure >>> 8);
		crc.update(procedure);
		crc.update(arguments.duplicate());
		return (int) crc.getValue();
	}

	/**
	 * Admits a non-idempotent call.
	 * @param peer who sent it: its {@link RequesterAddress} (address with port), the owner of
	 * the entry made for it
	 * @param call what a retransmission of it repeats
	 * @param waiter called once with the reply (a read-only buffer) if this is a
	 * retransmission of a call still executing, or with {@code null} if that call ends without
	 * a reply; called outside the cache's lock, on the thread that finishes the original
	 * @return what to do with the call
	 */
	public Admission admit(Object peer, CallIdentity call, Consumer<ByteBuffer> waiter) {
		Objects.requireNonNull(peer, "peer");
		Objects.requireNonNull(call, "call");
		synchronized (this) {
			purgeExpired(this.nanoClock.getAsLong());
			Entry same = this.calls.get(call);
			if (same != null) {
				return retransmission(same, waiter);
			}
			OwnXid ownXid = new OwnXid(peer, call.origin(), call.xid());
			Entry reused = this.ownXids.get(ownXid);
			if (reused != null) {
				this.checksumMismatches++;
				if (reused.reply == null) {
					// The peer's own call with this xid still runs: executing this one could
					// let the original's retransmission find no entry and run again, so it is
					// dropped, as Linux's nfsd_cache_lookup answers a call in progress (RC_DROPIT).
					this.dropped++;
					return Admission.DROP;
				}
				// Done: the peer's xids wrapped, or it restarted on the same port.
				remove(reused);
			}
			this.misses++;
			if (!makeRoom(this.shares.of(peer))) {
				this.uncached++;
				return Admission.EXECUTE_UNCACHED;
			}
			// Looked up again: giving up its last reply to make room forgot the share.
			PeerShare share = this.shares.join(peer);
			Entry entry = new Entry(call, ownXid, share);
			this.calls.put(call, entry);
			this.ownXids.put(ownXid, entry);
			share.entries++;
			return new Admission(Verdict.EXECUTE, entry, null);
		}
	}

	/** A call that repeats an entry's, from whichever port of its host: never executed. */
	private Admission retransmission(Entry original, Consumer<ByteBuffer> waiter) {
		if (original.reply != null) {
			this.hits++;
			return new Admission(Verdict.REPLAY, null, ByteBuffer.wrap(original.reply).asReadOnlyBuffer());
		}
		if (waiter != null && original.waiters.size() < MAX_WAITERS) {
			this.waits++;
			original.waiters.add(waiter);
			return Admission.WAIT;
		}
		this.dropped++;
		return Admission.DROP;
	}

	/**
	 * Makes room for one more entry of a peer's, within its share: at its own bound the peer
	 * gives up its own oldest reply; when the cache is full it takes the oldest reply of the
	 * peer holding the most, if that one holds at least two more entries than it does (so the
	 * two do not take turns evicting each other), else it gives up its own oldest.
	 * @param share the peer's share, {@code null} if it holds nothing
	 * @return false if no room could be made: only running calls are left to evict
	 */
	private boolean makeRoom(PeerShare share) {
		int held = (share != null) ? share.entries : 0;
		if (held >= this.maxEntriesPerPeer) {
			return evictOldestOf(share);
		}
		if (this.calls.size() < this.maxEntries) {
			return true;
		}
		PeerShare fullest = this.shares.fullest();
		if (fullest != null && fullest != share && fullest.entries > held + 1) {
			return evictOldestOf(fullest);
		}
		return share != null && evictOldestOf(share);
	}

	private boolean evictOldestOf(PeerShare share) {
		Entry oldest = share.oldest;
		if (oldest == null) {
			return false;
		}
		this.evictions++;
		remove(oldest);
		return true;
	}

	/**
	 * Caches the reply of a call admitted with {@link Verdict#EXECUTE} and hands it to the
	 * retransmissions waiting for it. Call this before sending the reply, so a retransmission
	 * arriving after the client has seen the reply finds it cached.
	 * @param entry the admission's entry
	 * @param reply the encoded reply, position to limit; copied, not retained, not moved
	 */
	public void complete(Entry entry, ByteBuffer reply) {
		byte[] bytes = new byte[reply.remaining()];
		reply.duplicate().get(bytes);
		List<Consumer<ByteBuffer>> waiters;
		synchronized (this) {
			waiters = entry.takeWaiters();
			if (entry.attached) {
				if (bytes.length > this.maxReplyBytes) {
					this.uncached++;
					remove(entry);
				}
				else {
					entry.reply = bytes;
					entry.completedNanos = this.nanoClock.getAsLong();
					append(entry);
					this.shares.replyCached(entry.share, entry);
				}
			}
		}
		notify(waiters, bytes);
	}

	/**
	 * Forgets a call admitted with {@link Verdict#EXECUTE} that did not execute (for example
	 * because the server was overloaded), so that a retransmission executes it.
	 * @param entry the admission's entry
	 * @param replyForWaiters the reply sent to the original, which the waiting
	 * retransmissions receive too; {@code null} if the original got none
	 */
	public void abandon(Entry entry, ByteBuffer replyForWaiters) {
		List<Consumer<ByteBuffer>> waiters;
		synchronized (this) {
			waiters = entry.takeWaiters();
			if (entry.attached) {
				remove(entry);
			}
		}
		byte[] bytes = null;
		if (replyForWaiters != null && !waiters.isEmpty()) {
			bytes = new byte[replyForWaiters.remaining()];
			replyForWaiters.duplicate().get(bytes);
		}
		notify(waiters, bytes);
	}

	/**
	 * @return counters since creation and the current number of entries
	 */
	public synchronized DuplicateRequestCacheStats stats() {
		return new DuplicateRequestCacheStats(this.hits, this.waits, this.misses, this.evictions, this.expirations,
				this.checksumMismatches, this.uncached, this.dropped, this.calls.size());
	}

	/** The number of entries a peer holds, for tests of the bounds. */
	synchronized int entries(Object peer) {
		PeerShare share = this.shares.of(peer);
		return (share != null) ? share.entries : 0;
	}

	/** The number of peers holding entries, for tests. */
	synchronized int peers() {
		return this.shares.peers();
	}

	private static void notify(List<Consumer<ByteBuffer>> waiters, byte[] reply) {
		for (Consumer<ByteBuffer> waiter : waiters) {
			waiter.accept((reply != null) ? ByteBuffer.wrap(reply).asReadOnlyBuffer() : null);
		}
	}

	private void purgeExpired(long now) {
		while (this.head != null && now - this.head.completedNanos >= this.ttlNanos) {
			this.expirations++;
			remove(this.head);
		}
	}

	private void remove(Entry entry) {
		this.calls.remove(entry.call, entry);
		this.ownXids.remove(entry.ownXid, entry);
		entry.attached = false;
		PeerShare share = entry.share;
		share.entries--;
		if (entry.reply != null) {
			unlink(entry);
			this.shares.replyRemoved(share, entry);
		}
		this.shares.leaveIfEmpty(share);
	}

	/** Appends a reply just cached to the list of every peer's, for the ttl. */
	private void append(Entry entry) {
		entry.prev = this.tail;
		if (this.tail != null) {
			this.tail.next = entry;
		}
		else {
			this.head = entry;
		}
		this.tail = entry;
	}

	private void unlink(Entry entry) {
		if (entry.prev != null) {
			entry.prev.next = entry.next;
		}
		else {
			this.head = entry.next;
		}
		if (entry.next != null) {
			entry.next.prev = entry.prev;
		}
		else {
			this.tail = entry.prev;
		}
		entry.prev = entry.next = null;
	}

	/** What the dispatcher does with an admitted call. */
	public enum Verdict {

		/** A new call: execute it, then {@link #complete} or {@link #abandon} its entry. */
		EXECUTE,

		/** A new call the cache has no room for: execute it without protection. */
		EXECUTE_UNCACHED,

		/** A retransmission of a finished call: send {@link Admission#cachedReply()} again. */
		REPLAY,

		/** A retransmission of a call still executing: its waiter will receive the reply. */
		WAIT,

		/** A retransmission of a call that already has enough waiters: drop it. */
		DROP

	}

	/**
	 * The cache's answer to a call.
	 *
	 * @param verdict what to do
	 * @param entry for {@link Verdict#EXECUTE}, the entry to complete or abandon
	 * @param cachedReply for {@link Verdict#REPLAY}, the original reply, read-only
	 */
	public record Admission(Verdict verdict, Entry entry, ByteBuffer cachedReply) {

		static final Admission WAIT = new Admission(Verdict.WAIT, null, null);

		static final Admission DROP = new Admission(Verdict.DROP, null, null);

		static final Admission EXECUTE_UNCACHED = new Admission(Verdict.EXECUTE_UNCACHED, null, null);

	}

	/** One cached call; opaque outside the cache. */
	public static final class Entry {

		final CallIdentity call;

		final OwnXid ownXid;

		final PeerShare share;

		/** Null while IN_PROGRESS; the reply once DONE. */
		byte[] reply;

		long completedNanos;

		boolean attached = true;

		List<Consumer<ByteBuffer>> waiters = new ArrayList<>(0);

		/** Neighbours among every peer's cached replies, oldest first. */
		Entry prev;

		Entry next;

		/** Neighbours among its peer's cached replies ({@link PeerShare}). */
		Entry peerPrev;

		Entry peerNext;

		Entry(CallIdentity call, OwnXid ownXid, PeerShare share) {
			this.call = call;
			this.ownXid = ownXid;
			this.share = share;
		}

		List<Consumer<ByteBuffer>> takeWaiters() {
			List<Consumer<ByteBuffer>> taken = this.waiters;
			this.waiters = List.of();
			return (taken != null) ? taken : List.of();
		}

		@Override
		public String toString() {
			return "DRC entry " + this.call + " (peer " + this.ownXid.peer() + ")"
					+ ((this.reply != null) ? " DONE" : " IN_PROGRESS");
		}

	}

	/**
	 * An entry's owner, origin and xid: a call with the same is the owner's own reuse of the
	 * xid. The origin is in it so that, under RPCSEC_GSS, one principal's calls on a connection
	 * never drop or displace another principal's.
	 */
	record OwnXid(Object peer, Object origin, int xid) {
	}

}
