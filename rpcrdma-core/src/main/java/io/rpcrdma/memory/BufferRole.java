package io.rpcrdma.memory;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;

/**
 * What a pooled buffer is used for, which fixes the access rights it is registered with
 * and whether its STag is ever shown to the peer.
 * <p>
 * Access rights are the minimum each use needs: memory is exposed to the peer only when
 * it must be, and only for the operation it is advertised for (RFC 8166 §8, RFC 5042 §5).
 * Roles that are {@linkplain #isAdvertised() advertised} get a memory region of their own
 * per buffer, so each buffer's STag can be retired when its RPC completes without
 * disturbing any other buffer; see {@link RegisteredMemoryPool}.
 */
public enum BufferRole {

	/**
	 * A buffer posted to receive an inline RPC-over-RDMA message (RFC 5666 §3.1, sized to
	 * the inline threshold). The adapter writes it, so it needs
	 * {@link AccessFlag#LOCAL_WRITE}; the peer never addresses it.
	 */
	RECEIVE(false, AccessFlag.LOCAL_WRITE),

	/**
	 * A buffer an inline message is marshalled into and sent from. The adapter only reads
	 * it, so it needs no access rights beyond the implicit local read.
	 */
	SEND(false),

	/**
	 * Memory the peer pulls with RDMA Read: the source of a Read chunk (RFC 5666 §3.4,
	 * RFC 8166 §3.4.5). Registered with {@link AccessFlag#REMOTE_READ} only.
	 */
	READ_CHUNK(true, AccessFlag.REMOTE_READ),

	/**
	 * Memory the peer fills with RDMA Write: a Write chunk or Reply chunk (RFC 5666 §3.4
	 * and §5.2, RFC 8166 §3.4.6). Registered with {@link AccessFlag#REMOTE_WRITE} and the
	 * {@link AccessFlag#LOCAL_WRITE} it requires.
	 */
	WRITE_CHUNK(true, AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE),

	/**
	 * Local memory for bulk transfers this side initiates: the sink of an RDMA Read of the
	 * peer's Read chunk, or the source of an RDMA Write into the peer's Write or Reply
	 * chunk. Needs {@link AccessFlag#LOCAL_WRITE} for the Read sink case; never advertised.
	 */
	LOCAL_BULK(false, AccessFlag.LOCAL_WRITE);

	private final boolean advertised;

	private final Set<AccessFlag> access;

	BufferRole(boolean advertised, AccessFlag... access) {
		this.advertised = advertised;
		EnumSet<AccessFlag> flags = EnumSet.noneOf(AccessFlag.class);
		Collections.addAll(flags, access);
		this.access = Collections.unmodifiableSet(flags);
	}

	/**
	 * The access rights buffers of this role are registered with.
	 * @return an unmodifiable set of access flags, possibly empty
	 */
	public Set<AccessFlag> access() {
		return this.access;
	}

	/**
	 * Whether buffers of this role are advertised to the peer in chunk lists, and so have
	 * a memory region (and STag) of their own that is rotated on every release.
	 * @return {@code true} for {@link #READ_CHUNK} and {@link #WRITE_CHUNK}
	 */
	public boolean isAdvertised() {
		return this.advertised;
	}

	/**
	 * The role's name in size class names and messages, for example {@code write-chunk}.
	 * @return the lower-case, hyphenated name
	 */
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
