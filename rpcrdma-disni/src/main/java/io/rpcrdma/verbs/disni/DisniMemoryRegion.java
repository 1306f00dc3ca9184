package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Set;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.SVCRegMr;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
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
 */
final class DisniMemoryRegion implements MemoryRegion {

	private static final System.Logger logger = System.getLogger(DisniMemoryRegion.class.getName());

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

	DisniMemoryRegion(DisniProtectionDomain pd, RegistrationRequest request) {
		this.pd = pd;
		this.buffer = request.slice();
		this.access = request.access();
		this.accessBits = request.accessBits();
		this.mr = register();
		this.address = this.mr.getAddr();
		this.rkey = this.mr.getRkey();
		this.lkey = this.mr.getLkey();
		this.valid = true;
		this.registered = true;
		pd.rkeyIssued(this, this.rkey);
	}

	private IbvMr register() {
		try {
			SVCRegMr call = this.pd.ibvPd().regMr(this.buffer, this.accessBits);
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
	 * registration stays (the next {@link #reregister()} releases it) but the key is dead.
	 * @param rkey the key the completion named
	 */
	synchronized void invalidatedByPeer(int rkey) {
		if (this.registered && this.valid && this.rkey == rkey) {
			this.valid = false;
			this.pd.rkeyRetired(this, rkey);
		}
	}

	@Override
	public synchronized int reregister() {
		checkRegistered("reregister");
		int previous = this.rkey;
		IbvMr old = this.mr;
		IbvMr fresh = register();
		if (old == null && fresh.getRkey() == previous) {
			// The adapter handed out the key it freed at invalidation; a peer holding it must
			// not regain access, so take another while this one is held.
			IbvMr another = register();
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

	@Override
	public void deregister() {
		synchronized (this) {
			if (!this.registered) {
				return;
			}
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
