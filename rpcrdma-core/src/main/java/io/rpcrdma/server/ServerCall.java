package io.rpcrdma.server;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.rpcrdma.memory.RegisteredBuffer;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.server.security.AnonymousPrincipal;
import io.rpcrdma.server.security.RpcPrincipal;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.transport.BackwardCalls;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * One call as a {@link ProcedureHandler} sees it: the RPC call header (the same accessors as
 * {@link RpcCall}), what the requester offered for the reply ({@link ChunkOffer}), and the
 * DDP-eligible items the handler marks in the results it writes (RFC 8166 §6).
 * <p>
 * A marked item is an opaque's data, without its length word: if the requester offered
 * Write chunk {@code i} and item {@code i} fits it, the transport RDMA-Writes the data there
 * and leaves only the length word in the reply (RFC 8166 §3.4.6); otherwise the item stays
 * in the reply like any other bytes. {@link #writeDdpOpaque(XdrEncoder, ByteBuffer)} writes
 * and marks in one step; {@link #writeDdpOpaqueByReference(XdrEncoder, ByteBuffer)} leaves
 * the data where it is, for the transport to take when it sends the reply.
 * <p>
 * Used by one handler at a time: not thread-safe. Marks are discarded when the handler fails.
 */
public final class ServerCall {

	private final RpcCall header;

	private final ChunkOffer offer;

	private final Object client;

	/** Made at the first ask, so calls whose service does not look allocate nothing for it. */
	private RpcPrincipal principal;

	/** The verifier every accepted reply carries; {@code null} for AUTH_NONE (RFC 2203 §5.3.3.2 sets it). */
	private OpaqueAuth replyVerifier;

	/** Where the reply starts in the results buffer, set when the buffer is acquired. */
	private int replyStart;

	/** Allocated at the first mark, so calls without bulk results allocate nothing. */
	private List<DdpRange> ddpItems;

	/** Where the reply goes: the connection the call came on, which may carry calls back. */
	private ReplySink origin;

	/**
	 * Whether an item may be reduced from the reply (RFC 8166 §3.4.1): the reply reaches a
	 * transport that conveys chunks, is neither protected by RPCSEC_GSS (which wraps the results whole) nor
	 * kept in the duplicate request cache (which keeps the reply's bytes).
	 */
	private boolean byReference;

	/**
	 * @param header the call header
	 * @param offer what the requester offered for the reply
	 */
	public ServerCall(RpcCall header, ChunkOffer offer) {
		this(header, offer, null);
	}

	/**
	 * @param header the call header
	 * @param offer what the requester offered for the reply
	 * @param client who sent the call (the dispatcher's client key, usually the requester's
	 * address), or {@code null}
	 */
	public ServerCall(RpcCall header, ChunkOffer offer, Object client) {
		this.header = Objects.requireNonNull(header, "header");
		this.offer = Objects.requireNonNull(offer, "offer");
		this.client = client;
	}

	/**
	 * The requester's W3C trace context, for a tracer to continue the requester's trace
	 * (extracted by the Spring Boot layer's observation), if the call carried one
	 * ({@link io.rpcrdma.protocol.TraceContextOption}).
	 * @return the context, or {@code null}
	 */
	public TraceContext traceContext() {
		return this.offer.traceContext();
	}

	void origin(ReplySink sink) {
		this.origin = sink;
	}

	/** @return where the reply goes, and so which connection the call came on; {@code null} if unknown */
	ReplySink origin() {
		return this.origin;
	}

	/**
	 * The backward direction of the connection this call came on (RFC 8167), to call the
	 * programs the client serves; {@code io.rpcrdma.backchannel.Backchannels#callerOf} makes
	 * it an RPC caller. Usable during and after this call while the connection lives.
	 * @return the connection's backward direction
	 * @throws BackwardDirectionUnavailableException if the connection has no backward
	 * direction (the server was started without backward-direction credits, or the call did
	 * not come over RPC-over-RDMA)
	 */
	public BackwardCalls backwardCalls() {
		BackwardCalls calls = (this.origin != null) ? this.origin.backwardCalls() : null;
		if (calls == null) {
			throw new BackwardDirectionUnavailableException("The call from " + this.client + " came on a connection"
					+ " without a backward direction: start the server with backward-direction credits"
					+ " (RpcServer.Config#withBackwardCredits, rpcrdma.server.backchannel.credits)");
		}
		return calls;
	}

	/**
	 * @return who sent the call: from an {@link RpcServer}, the requester's {@link RequesterAddress}
	 * (address and port); {@code null} if unknown
	 */
	public Object client() {
		return this.client;
	}

	/** @return the call header */
	public RpcCall header() {
		return this.header;
	}

	/** @return the transaction id */
	public int xid() {
		return this.header.xid();
	}

	/** @return the program number */
	public int program() {
		return this.header.program();
	}

	/** @return the program version */
	public int version() {
		return this.header.version();
	}

	/** @return the procedure number */
	public int procedure() {
		return this.header.procedure();
	}

	/** @return the caller's credential */
	public OpaqueAuth credential() {
		return this.header.credential();
	}

	/**
	 * Who sent the call, as far as its credential tells: {@link AnonymousPrincipal} for
	 * AUTH_NONE, an {@linkplain RpcPrincipal#verified() unverified} {@link io.rpcrdma.server.security.AuthSysPrincipal}
	 * for AUTH_SYS, a verified {@link io.rpcrdma.server.security.GssPrincipal} for RPCSEC_GSS. The server's {@link io.rpcrdma.server.security.SecurityPolicy} admitted the
	 * flavor before the handler runs.
	 * @return the caller's principal
	 */
	public RpcPrincipal principal() {
		RpcPrincipal known = this.principal;
		if (known == null) {
			known = SecurityPolicy.principalOf(this.header.credential());
			this.principal = known;
		}
		return known;
	}

	/**
	 * Records what RPCSEC_GSS proved about the call, before its handler runs.
	 * @param authenticated the verified principal
	 * @param verifier what its accepted replies carry
	 */
	void authenticated(RpcPrincipal authenticated, OpaqueAuth verifier) {
		this.principal = Objects.requireNonNull(authenticated, "authenticated");
		this.replyVerifier = Objects.requireNonNull(verifier, "verifier");
	}

	/** @return the verifier accepted replies carry, {@code null} for AUTH_NONE */
	OpaqueAuth replyVerifier() {
		return this.replyVerifier;
	}

	/** @return the credential's verifier */
	public OpaqueAuth verifier() {
		return this.header.verifier();
	}

	/** @return what the requester offered for the reply */
	public ChunkOffer offer() {
		return this.offer;
	}

	/** @return the RPC-over-RDMA version of the call (1 or 2), 0 if it did not come over RDMA */
	public int rdmaVersion() {
		return this.offer.rdmaVersion();
	}

	/** @return the capacity of each Write chunk the requester offered, in order */
	public List<Long> writeChunkCapacities() {
		return this.offer.writeChunkCapacities();
	}

	/** @return the capacity of the requester's Reply chunk, 0 if none */
	public long replyChunkCapacity() {
		return this.offer.replyChunkCapacity();
	}

	/**
	 * Writes a variable-length opaque result (RFC 4506 §4.10) and marks its data DDP-eligible,
	 * so it goes by the next Write chunk when the requester offered one large enough.
	 * @param results the results encoder the handler was given
	 * @param data the bytes between position and limit; not moved
	 * @return {@code results}
	 */
	public XdrEncoder writeDdpOpaque(XdrEncoder results, ByteBuffer data) {
		int start = results.position() + 4;
		results.writeOpaque(data);
		markDdpEligible(start, data.remaining());
		return results;
	}

	/**
	 * Whether {@link #writeDdpOpaqueByReference} may be used for the next item: the requester
	 * offered the Write chunk it pairs with, large enough for {@code length} bytes, and the
	 * reply is neither protected nor cached.
	 * @param length the item's data length
	 * @return whether the data can go by the Write chunk without being written to the results
	 */
	public boolean acceptsDdpByReference(int length) {
		if (!this.byReference) {
			return false;
		}
		int index = (this.ddpItems == null) ? 0 : this.ddpItems.size();
		List<Long> capacities = this.offer.writeChunkCapacities();
		return index < capacities.size() && length <= capacities.get(index);
	}

	/**
	 * Writes a variable-length opaque result whose data the transport RDMA-Writes into the
	 * requester's Write chunk straight from {@code data} (RFC 8166 §3.4.6): only the length
	 * word goes into the results. The data is not copied into the reply buffer and from there
	 * into registered memory, but once, into registered memory, when the reply is sent; it
	 * must stay unchanged until then, which is when the handler's stage completes (its
	 * arguments, and the receive memory they are views of, stay valid that long too).
	 * @param results the results encoder the handler was given
	 * @param data the bytes between position and limit; not moved
	 * @return {@code results}
	 * @throws IllegalStateException unless {@link #acceptsDdpByReference(int)} holds for it
	 */
	public XdrEncoder writeDdpOpaqueByReference(XdrEncoder results, ByteBuffer data) {
		requireDdpByReference(data.remaining());
		results.writeInt(data.remaining());
		addItem(DdpRange.reduced(results.position() - this.replyStart, data));
		return results;
	}

	/**
	 * Writes a variable-length opaque result whose data lies in registered memory: the
	 * transport RDMA-Writes it into the requester's Write chunk straight from {@code buffer},
	 * with no copy, when the buffer belongs to the server's memory pool (its protection domain);
	 * otherwise it is copied once, as by {@link #writeDdpOpaqueByReference(XdrEncoder, ByteBuffer)}.
	 * The buffer stays the caller's: it must stay leased and its bytes unchanged until the reply
	 * has been sent, so it suits data that does not change while it is served.
	 * @param results the results encoder the handler was given
	 * @param buffer the registered buffer; the data starts at its first byte
	 * @param length the data's length
	 * @return {@code results}
	 * @throws IllegalStateException unless {@link #acceptsDdpByReference(int)} holds for it
	 */
	public XdrEncoder writeDdpOpaqueByReference(XdrEncoder results, RegisteredBuffer buffer, int length) {
		requireDdpByReference(length);
		results.writeInt(length);
		addItem(DdpRange.registered(results.position() - this.replyStart, buffer, length));
		return results;
	}

	private void requireDdpByReference(int length) {
		if (!acceptsDdpByReference(length)) {
			throw new IllegalStateException("No Write chunk of " + length + " bytes or more waits for item "
					+ ((this.ddpItems == null) ? 0 : this.ddpItems.size()) + " of this reply, or the reply is protected"
					+ " or cached; check acceptsDdpByReference first, else write the data with writeDdpOpaque");
		}
	}

	/** The dispatcher says whether items may be reduced from this call's reply. */
	void allowDdpByReference(boolean allowed) {
		this.byReference = allowed;
	}

	/**
	 * Marks bytes already written to the results as one DDP-eligible item: an opaque's data,
	 * after its length word and without its padding (RFC 8166 §3.4.6). Items are marked in
	 * increasing order; item {@code i} pairs with Write chunk {@code i}.
	 * @param position where the data starts, as {@link XdrEncoder#position()} reported it
	 * @param length the data's length, without padding
	 * @throws IllegalArgumentException if the item is misaligned, lies in the reply header or
	 * overlaps an item marked before
	 */
	public void markDdpEligible(int position, int length) {
		int offset = position - this.replyStart;
		if (offset < 8 || (offset & 3) != 0 || length < 0) {
			throw new IllegalArgumentException("A DDP-eligible item starts at a multiple of four after the reply header,"
					+ " got offset " + offset + " and length " + length + " (RFC 8166 §3.4.4: chunks begin at XDR"
					+ " alignment); pass the encoder position just after the item's length word");
		}
		addItem(new DdpRange(offset, length));
	}

	private void addItem(DdpRange item) {
		if (this.ddpItems == null) {
			this.ddpItems = new ArrayList<>(2);
		}
		else if (item.offset() < this.ddpItems.get(this.ddpItems.size() - 1).paddedEnd()) {
			throw new IllegalArgumentException("DDP-eligible item " + item + " overlaps or precedes "
					+ this.ddpItems.get(this.ddpItems.size() - 1) + "; mark items in the order they are written");
		}
		this.ddpItems.add(item);
	}

	/**
	 * @return the items marked so far, offsets relative to the reply's first byte (its XID)
	 */
	public List<DdpRange> ddpItems() {
		return (this.ddpItems == null) ? List.of() : List.copyOf(this.ddpItems);
	}

	/** The results buffer was acquired: positions are translated from here on. */
	void replyStartsAt(int start) {
		this.replyStart = start;
	}

	/** The handler failed: what it marked is discarded with what it wrote. */
	void discardMarks() {
		this.ddpItems = null;
	}

	@Override
	public String toString() {
		return this.header + " " + this.offer;
	}

}
