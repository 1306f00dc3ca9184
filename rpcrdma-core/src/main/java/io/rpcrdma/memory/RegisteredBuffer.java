package io.rpcrdma.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;

import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RemoteAddress;

/**
 * A buffer leased from a {@link RegisteredMemoryPool}: {@link #length()} bytes of
 * registered memory at {@link #offset()} in {@link #region()}, owned by whoever leased it
 * until they call {@link #release()}, exactly once.
 * <p>
 * After release the memory belongs to the pool again (and soon to another lessee):
 * neither this object nor the {@link #buffer()} view may be used any more. With leak
 * tracking off the pool reuses one lease object per buffer, so that leasing allocates
 * nothing; a second release is then detected while the buffer is still in the pool, but
 * not once it has been leased again (the second release would return the new lessee's
 * buffer). With {@link MemoryPoolConfig#leakTracking()} on, every lease is a fresh object
 * and every second release is detected, with the sites of the lease and of the first
 * release. Run tests with tracking on.
 * <p>
 * A buffer of an {@linkplain BufferRole#isAdvertised() advertised} role has a memory
 * region of its own: {@link #remoteAddress()} is what a chunk segment advertises (RFC 5666
 * §3.4), and the STag stops working when the buffer is released. Other buffers share
 * their slab's region and are never shown to the peer.
 * <p>
 * Not thread-safe beyond {@link #release()}: hand a buffer from thread to thread with
 * the usual happens-before edges (a queue, a completion).
 */
public final class RegisteredBuffer {

	private static final VarHandle STATE;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(RegisteredBuffer.class, "state", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	static final int RELEASED = 0;

	static final int LEASED = 1;

	private final Slot slot;

	/** Where and when the buffer was leased; {@code null} unless leak tracking is on. */
	private final LeaseSite leaseSite;

	/** Where the buffer was first released; set only when leak tracking is on. */
	private volatile LeaseSite releaseSite;

	@SuppressWarnings("unused") // accessed through STATE
	private volatile int state;

	RegisteredBuffer(Slot slot, LeaseSite leaseSite) {
		this.slot = slot;
		this.leaseSite = leaseSite;
	}

	/**
	 * The registered region the buffer lies in: the slab's shared region, or the
	 * buffer's own region for advertised roles. Use it with {@link #offset()} in local
	 * scatter/gather entries.
	 * @return the memory region
	 */
	public MemoryRegion region() {
		return this.slot.region;
	}

	/**
	 * Where the buffer starts inside {@link #region()}.
	 * @return the offset in bytes
	 */
	public int offset() {
		return this.slot.offset;
	}

	/**
	 * The number of bytes the buffer owns: its size class's buffer size, which may be
	 * more than was asked for.
	 * @return the length in bytes
	 */
	public int length() {
		return this.slot.owner.bufferSize;
	}

	/**
	 * A view of exactly this buffer's bytes, with position 0 and limit and capacity
	 * {@link #length()} when leased. The same view object is handed to every lessee of
	 * these bytes, so it must not be kept after {@link #release()}.
	 * @return the view
	 * @throws IllegalStateException if the buffer was already released
	 */
	public ByteBuffer buffer() {
		checkLeased("buffer()");
		return this.slot.view;
	}

	/**
	 * The peer-visible address of the buffer's first byte, {@code region().address() +
	 * offset()}.
	 * @return the address, an unsigned 64-bit value
	 */
	public long address() {
		return this.slot.region.address() + this.slot.offset;
	}

	/**
	 * The local key for scatter/gather entries.
	 * @return the region's lkey
	 */
	public int lkey() {
		return this.slot.region.lkey();
	}

	/**
	 * The current STag of the buffer's own region, for encoding a chunk segment without
	 * allocating (together with {@link #address()}).
	 * @return the STag
	 * @throws IllegalStateException if the buffer's role is not advertised, or it was
	 * released
	 */
	public int stag() {
		checkAdvertised();
		return this.slot.region.stag();
	}

	/**
	 * The STag and address of the buffer's first byte: what a Read, Write or Reply chunk
	 * segment advertises to the peer (RFC 5666 §3.4, RFC 8166 §3.4.3), with the length the
	 * caller actually uses. The STag is valid until the buffer is released.
	 * @return the remote address
	 * @throws IllegalStateException if the buffer's role is not advertised (its region is
	 * shared with other buffers and must not be exposed), or it was released
	 */
	public RemoteAddress remoteAddress() {
		checkAdvertised();
		return this.slot.region.remoteAddress(this.slot.offset);
	}

	/**
	 * The size class the buffer was leased from.
	 * @return the size class
	 */
	public SizeClass sizeClass() {
		return this.slot.owner.sizeClass;
	}

	/**
	 * What the buffer is for.
	 * @return the role of its size class
	 */
	public BufferRole role() {
		return this.slot.owner.sizeClass.role();
	}

	/**
	 * Whether this lease is still held, that is {@link #release()} has not run.
	 * @return {@code true} while leased
	 */
	public boolean isLeased() {
		return (int) STATE.getVolatile(this) == LEASED;
	}

	/**
	 * Returns the buffer to its pool. For an advertised role the region's STag is
	 * replaced first, so the STag sent to the peer no longer works (RFC 8166 §8: a chunk's
	 * STag is invalidated when its RPC completes); a read chunk is also zeroed when
	 * {@link MemoryPoolConfig#scrubReadChunks()} is on. Call it only after the adapter is
	 * done with the memory (the work request completed or was flushed). Releasing after
	 * the pool closed is allowed and does nothing more.
	 * @throws BufferAlreadyReleasedException if this lease was already released
	 */
	public void release() {
		if (!STATE.compareAndSet(this, LEASED, RELEASED)) {
			throw new BufferAlreadyReleasedException(this);
		}
		if (this.leaseSite != null) {
			this.releaseSite = LeaseSite.capture("released");
		}
		this.slot.owner.release(this);
	}

	void markLeased() {
		STATE.setVolatile(this, LEASED);
	}

	Slot slot() {
		return this.slot;
	}

	LeaseSite leaseSite() {
		return this.leaseSite;
	}

	LeaseSite releaseSite() {
		return this.releaseSite;
	}

	OutstandingLease describeLease() {
		LeaseSite site = this.leaseSite;
		return new OutstandingLease(sizeClass().name(), this.slot.region.address() + this.slot.offset, length(),
				(site != null) ? site.thread() : null, (site != null) ? site.time() : null,
				(site != null) ? site.frames() : List.of());
	}

	private void checkLeased(String what) {
		if ((int) STATE.getVolatile(this) != LEASED) {
			throw new IllegalStateException("RegisteredBuffer " + describe() + " was released; " + what
					+ " must not be used after release() (the pool may have leased the memory to someone else)");
		}
	}

	private void checkAdvertised() {
		if (!this.slot.owner.sizeClass.role().isAdvertised()) {
			throw new IllegalStateException("RegisteredBuffer " + describe() + " is a " + role()
					+ " buffer, which shares its slab's memory region and must never be advertised to the peer; "
					+ "lease a READ_CHUNK or WRITE_CHUNK buffer for memory the peer accesses");
		}
		checkLeased("its STag");
	}

	String describe() {
		return "[" + sizeClass().name() + ", region STag 0x" + Integer.toHexString(this.slot.region.stag())
				+ ", offset " + this.slot.offset + ", " + length() + " bytes]";
	}

	@Override
	public String toString() {
		return "RegisteredBuffer" + describe() + (isLeased() ? "" : " (released)");
	}

	/**
	 * Where something happened to a lease: thread, time and the caller's stack frames.
	 */
	record LeaseSite(String what, String thread, Instant time, List<StackTraceElement> frames) {

		private static final StackWalker WALKER = StackWalker.getInstance();

		private static final int MAX_FRAMES = 24;

		static LeaseSite capture(String what) {
			// Skip the pool's own frames so that the first frame is the caller's.
			List<StackTraceElement> frames = WALKER.walk((stream) -> stream
				.dropWhile((frame) -> isPoolFrame(frame.getClassName()))
				.limit(MAX_FRAMES)
				.map(StackWalker.StackFrame::toStackTraceElement)
				.toList());
			return new LeaseSite(what, Thread.currentThread().getName(), Instant.now(), frames);
		}

		private static boolean isPoolFrame(String className) {
			return isClassOrNested(className, RegisteredBuffer.class) || isClassOrNested(className, RegisteredMemoryPool.class)
					|| isClassOrNested(className, SizeClassPool.class);
		}

		private static boolean isClassOrNested(String className, Class<?> type) {
			String name = type.getName();
			return className.equals(name) || (className.startsWith(name) && className.charAt(name.length()) == '$');
		}

		/**
		 * A throwable whose stack trace is this site, to attach as a cause.
		 */
		Throwable asThrowable() {
			Throwable site = new Throwable("Buffer " + this.what + " here, on thread '" + this.thread + "' at "
					+ this.time);
			site.setStackTrace(this.frames.toArray(new StackTraceElement[0]));
			return site;
		}

	}

}
