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
 * reliable transport, RFC 5531 §8.1).
 * <p>
 * A call is identified by the client (a key the transport supplies, such as the peer address
 * without its port, stable across reconnections), its xid, and a CRC32C {@link #checksum} of
 * the call's bytes after the xid: the same xid with another checksum is a different call (the
 * client's xids wrapped, or a new client instance at the same address) and executes afresh,
 * replacing the old entry.
 * <p>
 * An entry is IN_PROGRESS while the original executes and DONE once its reply is cached.
 * <b>A retransmission of an IN_PROGRESS call waits for the original's reply</b> rather than
 * being dropped: over RPC-over-RDMA a client retransmits only after the connection was lost
 * (RFC 8166 §4.2.1 — the transport is reliable), so the original reply most likely went to
 * the dead connection, and dropping the retransmission would leave the client to time out.
 * At most {@value #MAX_WAITERS} retransmissions wait on one call; more are dropped.
 * <p>
 * Bounds: at most {@code maxEntriesPerClient} entries per client and {@code maxEntries} in all;
 * DONE entries older than {@code ttl} expire. When a bound is reached the oldest DONE entry
 * (of that client, or overall) is evicted; IN_PROGRESS entries are never evicted, and when
 * only they fill the cache the new call executes uncached (counted). Replies larger than
 * {@code maxReplyBytes} are not kept. One lock guards the cache: only non-idempotent calls
 * come here, and each holds it for a few map operations.
 */
public final class DuplicateRequestCache {

	/** The most retransmissions that may wait on one in-progress call. */
	public static final int MAX_WAITERS = 4;

	private final int maxEntriesPerClient;

	private final int maxEntries;

	private final long ttlNanos;

	private final int maxReplyBytes;

	private final LongSupplier nanoClock;

	private final Map<Key, Entry> entries = new HashMap<>();

	private final Map<Object, ClientBucket> clients = new HashMap<>();

	/** DONE entries, oldest reply first. */
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
	 * @param maxEntriesPerClient the most entries one client may hold
	 * @param maxEntries the most entries in all
	 * @param ttl how long a cached reply is kept
	 */
	public DuplicateRequestCache(int maxEntriesPerClient, int maxEntries, Duration ttl) {
		this(maxEntriesPerClient, maxEntries, ttl, 64 * 1024, System::nanoTime);
	}

	/**
	 * @param maxEntriesPerClient the most entries one client may hold
	 * @param maxEntries the most entries in all
	 * @param ttl how long a cached reply is kept
	 * @param maxReplyBytes the largest reply kept
	 * @param nanoClock the time source for {@code ttl}, {@link System#nanoTime()} but in tests
	 */
	public DuplicateRequestCache(int maxEntriesPerClient, int maxEntries, Duration ttl, int maxReplyBytes,
			LongSupplier nanoClock) {
		if (maxEntriesPerClient < 1 || maxEntries < 1) {
			throw new IllegalArgumentException("duplicate request cache bounds must be at least 1, not "
					+ maxEntriesPerClient + " per client and " + maxEntries + " in all");
		}
		if (ttl.isNegative() || ttl.isZero()) {
			throw new IllegalArgumentException("duplicate request cache ttl must be positive, not " + ttl);
		}
		this.maxEntriesPerClient = maxEntriesPerClient;
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
	 * @param clientKey who sent it, as the transport identifies clients
	 * @param xid the call's xid
	 * @param checksum its {@link #checksum}
	 * @param waiter called once with the reply (a read-only buffer) if this is a
	 * retransmission of a call still executing, or with {@code null} if that call ends without
	 * a reply; called outside the cache's lock, on the thread that finishes the original
	 * @return what to do with the call
	 */
	public Admission admit(Object clientKey, int xid, int checksum, Consumer<ByteBuffer> waiter) {
		Objects.requireNonNull(clientKey, "clientKey");
		synchronized (this) {
			long now = this.nanoClock.getAsLong();
			purgeExpired(now);
			Key key = new Key(clientKey, xid);
			Entry entry = this.entries.get(key);
			if (entry != null) {
				if (entry.checksum != checksum) {
					this.checksumMismatches++;
					remove(entry);
				}
				else if (entry.reply != null) {
					this.hits++;
					return new Admission(Verdict.REPLAY, null, ByteBuffer.wrap(entry.reply).asReadOnlyBuffer());
				}
				else if (waiter != null && entry.waiters.size() < MAX_WAITERS) {
					this.waits++;
					entry.waiters.add(waiter);
					return Admission.WAIT;
				}
				else {
					this.dropped++;
					return Admission.DROP;
				}
			}
			this.misses++;
			ClientBucket bucket = this.clients.get(clientKey);
			if (bucket != null) {
				while (bucket.count >= this.maxEntriesPerClient && bucket.head != null) {
					this.evictions++;
					remove(bucket.head);
				}
			}
			while (this.entries.size() >= this.maxEntries && this.head != null) {
				this.evictions++;
				remove(this.head);
			}
			bucket = this.clients.get(clientKey);
			if ((bucket != null && bucket.count >= this.maxEntriesPerClient) || this.entries.size() >= this.maxEntries) {
				this.uncached++;
				return Admission.EXECUTE_UNCACHED;
			}
			if (bucket == null) {
				bucket = new ClientBucket(clientKey);
				this.clients.put(clientKey, bucket);
			}
			entry = new Entry(key, checksum, bucket);
			this.entries.put(key, entry);
			bucket.count++;
			return new Admission(Verdict.EXECUTE, entry, null);
		}
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
				this.checksumMismatches, this.uncached, this.dropped, this.entries.size());
	}

	/** The number of entries a client holds, for tests of the bounds. */
	synchronized int entries(Object clientKey) {
		ClientBucket bucket = this.clients.get(clientKey);
		return (bucket != null) ? bucket.count : 0;
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
		this.entries.remove(entry.key, entry);
		entry.attached = false;
		ClientBucket bucket = entry.bucket;
		bucket.count--;
		if (entry.reply != null) {
			unlink(entry);
		}
		if (bucket.count == 0) {
			this.clients.remove(bucket.clientKey, bucket);
		}
	}

	private void append(Entry entry) {
		entry.prev = this.tail;
		if (this.tail != null) {
			this.tail.next = entry;
		}
		else {
			this.head = entry;
		}
		this.tail = entry;
		ClientBucket bucket = entry.bucket;
		entry.clientPrev = bucket.tail;
		if (bucket.tail != null) {
			bucket.tail.clientNext = entry;
		}
		else {
			bucket.head = entry;
		}
		bucket.tail = entry;
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
		ClientBucket bucket = entry.bucket;
		if (entry.clientPrev != null) {
			entry.clientPrev.clientNext = entry.clientNext;
		}
		else {
			bucket.head = entry.clientNext;
		}
		if (entry.clientNext != null) {
			entry.clientNext.clientPrev = entry.clientPrev;
		}
		else {
			bucket.tail = entry.clientPrev;
		}
		entry.prev = entry.next = entry.clientPrev = entry.clientNext = null;
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

		final Key key;

		final int checksum;

		final ClientBucket bucket;

		/** Null while IN_PROGRESS; the reply once DONE. */
		byte[] reply;

		long completedNanos;

		boolean attached = true;

		List<Consumer<ByteBuffer>> waiters = new ArrayList<>(0);

		Entry prev;

		Entry next;

		Entry clientPrev;

		Entry clientNext;

		Entry(Key key, int checksum, ClientBucket bucket) {
			this.key = key;
			this.checksum = checksum;
			this.bucket = bucket;
		}

		List<Consumer<ByteBuffer>> takeWaiters() {
			List<Consumer<ByteBuffer>> taken = this.waiters;
			this.waiters = List.of();
			return (taken != null) ? taken : List.of();
		}

		@Override
		public String toString() {
			return "DRC entry xid " + String.format("0x%08x", this.key.xid) + " of " + this.key.clientKey
					+ ((this.reply != null) ? " DONE" : " IN_PROGRESS");
		}

	}

	record Key(Object clientKey, int xid) {
	}

	static final class ClientBucket {

		final Object clientKey;

		int count;

		Entry head;

		Entry tail;

		ClientBucket(Object clientKey) {
			this.clientKey = clientKey;
		}

	}

}
