package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.Set;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.SVCRegMr;
import com.ibm.disni.verbs.impl.NatIbvMr;
import com.ibm.disni.verbs.impl.NatIbvPd;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.ProviderCapabilities;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.RdmaException;

/**
 * A region registered with {@code ibv_reg_mr}. Its STag is the verbs <em>rkey</em>, the
 * key a peer uses; the lkey only ever goes into local scatter/gather entries. Advertising
 * the lkey instead is a classic mistake (DiSNI issue 3): it happens to work on adapters
 * where both keys are equal and fails with remote access errors everywhere else.
 * <p>
 * A peer's Send with Invalidate that the device applied (Linux's siw does for these regions,
 * Soft-RoCE and InfiniBand adapters refuse it and fail the connection) leaves the region
 * invalid, as the receive completion reports.
 * <p>
 * DiSNI 2.1 has neither fast registration nor memory windows, so {@link #invalidate()}
 * deregisters the memory and {@link #reregister()} registers it again under a new rkey:
 * correct (the old rkey is dead at the adapter), but a system call each, so the layers
 * above should invalidate per RPC only where the protocol needs it.
 * <p>
 * Where the device offers type 2 memory windows ({@link DisniWindows}), a region that grants
 * remote access is offered through one instead: at its first {@link #offerTo offer} it is
 * registered again for local access and window binding only (its registration's rkey then
 * reaches nothing), and every offer binds its window to the connection's queue pair under an
 * rkey with a new key byte, by a work request; {@link #retire} invalidates the window by
 * another, or finds the peer already did with Send With Invalidate. No system call per RPC, and
 * only the queue pair it was offered to reaches it (the adapter checks the window's queue pair).
 */
final class DisniMemoryRegion implements MemoryRegion, WindowWork {

	private static final System.Logger logger = System.getLogger(DisniMemoryRegion.class.getName());

	/** {@code IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ}: what a window grants. */
	private static final int REMOTE_BITS = RegistrationRequest.IBV_ACCESS_REMOTE_WRITE
			| RegistrationRequest.IBV_ACCESS_REMOTE_READ;

	/** {@code IBV_ACCESS_MW_BIND}. */
	private static final int IBV_ACCESS_MW_BIND = 1 << 4;

	/**
	 * The registration of a region offered through windows: local access, which remote writes
	 * through a window need too (InfiniBand C10-74), and binding; no remote rights of its own.
	 */
	private static final int WINDOWED_BITS = RegistrationRequest.IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND;

	private final DisniProtectionDomain pd;

	private final ByteBuffer buffer;

	private final Set<AccessFlag> access;

	private final int accessBits;

	private final long address;

	private IbvMr mr;

	private volatile int rkey;

	private volatile int lkey;

	private volatile boolean valid;

	private volatile boolean registered;

	/** Whether remote access goes through a memory window (the device has them, the rights are remote). */
	private final boolean windowCapable;

	/** The window's remote access bits. */
	private final int windowAccess;

	/** Whether the registration is local-only (plus window binding) and the rkey a window's. */
	private boolean windowed;

	/** The window's handle, 0 when none is allocated. */
	private long window;

	/** The queue pair the window is bound to, until it is retired. */
	private DisniQueuePair boundTo;

	/** Whether the window is bound and no one invalidated it yet. */
	private boolean windowLive;

	/** Run when the pending invalidation completes; {@code null} when none is pending. */
	private Runnable whenRetired;

	DisniMemoryRegion(DisniProtectionDomain pd, RegistrationRequest request) {
		this.pd = pd;
		this.buffer = request.slice();
		this.access = request.access();
		this.accessBits = request.accessBits();
		this.windowAccess = request.accessBits() & REMOTE_BITS;
		this.windowCapable = this.windowAccess != 0 && pd.disniProvider().windows().available();
		this.mr = register(this.accessBits);
		this.address = this.mr.getAddr();
		this.rkey = this.mr.getRkey();
		this.lkey = this.mr.getLkey();
		this.valid = true;
		this.registered = true;
		pd.rkeyIssued(this, this.rkey);
	}

	private IbvMr register(int bits) {
		try {
			SVCRegMr call = this.pd.ibvPd().regMr(this.buffer, bits);
			try {
				IbvMr registered = call.execute().getMr();
				this.pd.registrationMade();
				return registered;
			}
			finally {
				call.free();
			}
		}
		catch (IOException ex) {
			throw new RdmaException("ibv_reg_mr failed for " + this.buffer.capacity() + " bytes with access "
					+ this.access + ": " + DisniProtectionDomain.describe(ex) + "; registration pins memory, so check "
					+ "the locked-memory limit (ulimit -l, or LimitMEMLOCK for a systemd service)", ex);
		}
	}

	private void deregister(IbvMr mr) {
		this.pd.deregistrationMade();
		try {
			mr.deregMr().execute().free();
		}
		catch (IOException ex) {
			logger.log(Level.WARNING, "ibv_dereg_mr failed for rkey 0x" + Integer.toHexString(mr.getRkey()), ex);
		}
	}

	@Override
	public int stag() {
		return this.rkey;
	}

	@Override
	public int lkey() {
		return this.lkey;
	}

	@Override
	public long address() {
		return this.address;
	}

	@Override
	public int length() {
		return this.buffer.capacity();
	}

	@Override
	public Set<AccessFlag> access() {
		return this.access;
	}

	@Override
	public ByteBuffer buffer() {
		return this.buffer;
	}

	@Override
	public ProtectionDomain protectionDomain() {
		return this.pd;
	}

	@Override
	public boolean isValid() {
		return this.valid;
	}

	@Override
	public boolean isRegistered() {
		return this.registered;
	}

	@Override
	public synchronized void invalidate() {
		checkRegistered("invalidate");
		if (this.windowed) {
			killWindow();
			return;
		}
		if (!this.valid) {
			return;
		}
		// The rkey must stop working at the adapter, and only deregistration does that here.
		deregister(this.mr);
		this.mr = null;
		this.valid = false;
		this.pd.rkeyRetired(this, this.rkey);
	}

	/**
	 * A peer's Send with Invalidate named this region's rkey and the device invalidated it: the
	 * registration stays (the next {@link #reregister()} releases it) but the key is dead. For
	 * a window, the adapter has freed it: the next offer binds it again without a local
	 * invalidation (RFC 8797 section 4.2's remote invalidation saves the requester that work).
	 * @param rkey the key the completion named
	 */
	synchronized void invalidatedByPeer(int rkey) {
		if (this.windowed) {
			if (this.windowLive && this.rkey == rkey) {
				this.windowLive = false;
				this.pd.rkeyRetired(this, rkey);
			}
			return;
		}
		if (this.registered && this.valid && this.rkey == rkey) {
			this.valid = false;
			this.pd.rkeyRetired(this, rkey);
		}
	}

	/**
	 * Makes the STag useless at once. A region offered through a window loses its window (a
	 * system call) and reaches peers again only through its next offer; its registration stays.
	 */
	@Override
	public synchronized int reregister() {
		checkRegistered("reregister");
		if (this.windowed) {
			killWindow();
			return this.rkey;
		}
		int previous = this.rkey;
		IbvMr old = this.mr;
		IbvMr fresh = register(this.accessBits);
		if (old == null && fresh.getRkey() == previous) {
			// The adapter handed out the key it freed at invalidation; a peer holding it must
			// not regain access, so take another while this one is held.
			IbvMr another = register(this.accessBits);
			deregister(fresh);
			fresh = another;
		}
		if (old != null) {
			deregister(old);
		}
		this.pd.rkeyRetired(this, previous);
		this.mr = fresh;
		this.rkey = fresh.getRkey();
		this.lkey = fresh.getLkey();
		this.valid = true;
		this.pd.rkeyIssued(this, this.rkey);
		return this.rkey;
	}

	/**
	 * Binds the region's window to {@code queuePair} under a fresh rkey when the device has
	 * windows; otherwise the region stays reachable by any queue pair of its domain while its
	 * rkey is valid ({@link ProviderCapabilities#connectionScopedRegions()}).
	 */
	@Override
	public void offerTo(QueuePair queuePair) {
		if (!this.windowCapable) {
			return;
		}
		if (!(queuePair instanceof DisniQueuePair target) || target.provider() != this.pd.disniProvider()) {
			throw new IllegalArgumentException("Cannot offer " + this + " to " + queuePair
					+ ": not a queue pair of the provider that registered it");
		}
		synchronized (this) {
			checkRegistered("offer");
			if (this.whenRetired != null) {
				throw new IllegalStateException("Cannot offer " + this + " while its last offer is being retired; "
						+ "wait for the retirement to complete");
			}
			if (this.boundTo != null && this.windowLive) {
				if (this.boundTo == target) {
					return; // offered again for the same call
				}
				throw new IllegalStateException("Cannot offer " + this + " to queue pair " + target.index()
						+ ": it is still offered to queue pair " + this.boundTo.index() + "; retire it first");
			}
			if (!this.windowed) {
				becomeWindowed();
			}
			if (this.window == 0) {
				allocateWindow();
			}
			// ibv_inc_rkey: the window's index bits stay, its key byte moves on, so an rkey a
			// peer kept from an earlier offer reaches nothing.
			int fresh = (this.rkey & 0xffff_ff00) | ((this.rkey + 1) & 0xff);
			target.bindWindow(this, this.window, fresh, ((NatIbvMr) this.mr).getObjId(), this.address, length(),
					this.windowAccess);
			this.pd.rkeyRetired(this, this.rkey);
			this.rkey = fresh;
			this.boundTo = target;
			this.windowLive = true;
			this.pd.rkeyIssued(this, fresh);
		}
	}

	/**
	 * Retires the window's rkey by a local invalidation posted on the queue pair it is bound
	 * to, running {@code whenRetired} on the completion thread when it completes; at once when
	 * the peer already invalidated it, or the region was not offered since it last retired.
	 * Without windows: rotation by registration, as the SPI's default.
	 */
	@Override
	public void retire(Runnable whenRetired) {
		Objects.requireNonNull(whenRetired, "whenRetired");
		DisniQueuePair target = null;
		int key = 0;
		synchronized (this) {
			checkRegistered("retire");
			if (!this.windowed) {
				reregister();
			}
			else if (this.whenRetired != null) {
				throw new IllegalStateException(this + " is already being retired");
			}
			else if (this.boundTo != null && this.windowLive) {
				target = this.boundTo;
				key = this.rkey;
				this.whenRetired = whenRetired;
				this.windowLive = false;
				this.pd.rkeyRetired(this, key);
			}
			else if (this.boundTo != null) {
				// The peer's Send With Invalidate freed it.
				this.boundTo.windowUnbound(this);
				this.boundTo = null;
			}
		}
		if (target == null) {
			whenRetired.run();
		}
		else if (!target.invalidateWindow(key, this)) {
			windowWorkDone(false);
		}
	}

	/**
	 * The local invalidation of the window completed, or failed, or the queue pair took no more
	 * work: a window whose state at the adapter is not known is deallocated, which kills its
	 * rkey whatever it was.
	 */
	@Override
	public void windowWorkDone(boolean completed) {
		Runnable done;
		synchronized (this) {
			done = this.whenRetired;
			this.whenRetired = null;
			if (!completed) {
				killWindow();
			}
			else if (this.boundTo != null) {
				this.boundTo.windowUnbound(this);
			}
			this.boundTo = null;
		}
		if (done != null) {
			done.run();
		}
	}

	/** Registers again for local access and window binding only: the old rkey dies. Once per region. */
	private void becomeWindowed() {
		IbvMr old = this.mr;
		IbvMr fresh = register(WINDOWED_BITS);
		this.pd.rkeyRetired(this, this.rkey);
		if (old != null) {
			deregister(old);
		}
		this.mr = fresh;
		this.lkey = fresh.getLkey();
		this.valid = true;
		this.windowed = true;
	}

	private void allocateWindow() {
		ByteBuffer rkeyOut = ByteBuffer.allocateDirect(Integer.BYTES).order(ByteOrder.nativeOrder());
		try {
			this.window = WindowNatives.allocate(((NatIbvPd) this.pd.ibvPd()).getObjId(),
					MemoryUtils.getAddress(rkeyOut));
		}
		catch (IOException ex) {
			throw new RdmaException("ibv_alloc_mw failed for " + this + ": " + DisniProtectionDomain.describe(ex)
					+ "; the device may have no windows left (max_mw)", ex);
		}
		this.rkey = rkeyOut.getInt(0);
		this.pd.disniProvider().windowAllocated();
	}

	/**
	 * The queue pair the window is bound to is about to be destroyed: the window dies first.
	 * @param queuePair the queue pair
	 */
	synchronized void queuePairGone(DisniQueuePair queuePair) {
		if (this.boundTo == queuePair) {
			killWindow();
		}
	}

	/** Deallocates the window, if any: its rkey dies at once, bound or not. */
	private void killWindow() {
		if (this.boundTo != null) {
			this.boundTo.windowUnbound(this);
		}
		if (this.window == 0) {
			return;
		}
		try {
			WindowNatives.deallocate(this.window);
		}
		catch (IOException ex) {
			logger.log(Level.WARNING, "ibv_dealloc_mw failed for " + this, ex);
		}
		this.window = 0;
		this.boundTo = null;
		if (this.windowLive) {
			this.windowLive = false;
			this.pd.rkeyRetired(this, this.rkey);
		}
	}

	@Override
	public void deregister() {
		synchronized (this) {
			if (!this.registered) {
				return;
			}
			// A bound window holds its region at the adapter (rxe refuses to deregister it).
			killWindow();
			this.registered = false;
			this.valid = false;
			this.pd.rkeyRetired(this, this.rkey);
			if (this.mr != null) {
				deregister(this.mr);
				this.mr = null;
			}
		}
		this.pd.regionDeregistered(this);
	}

	private void checkRegistered(String operation) {
		if (!this.registered) {
			throw new IllegalStateException("Cannot " + operation + " a deregistered region (rkey 0x"
					+ Integer.toHexString(this.rkey) + "); register the memory again");
		}
	}

	@Override
	public String toString() {
		return "DisniMemoryRegion[rkey=0x" + Integer.toHexString(this.rkey) + ", address=0x"
				+ Long.toHexString(this.address) + ", length=" + length() + ", valid=" + this.valid + "]";
	}

}
