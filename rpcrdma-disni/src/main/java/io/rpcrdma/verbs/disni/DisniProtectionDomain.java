package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.ibm.disni.verbs.IbvPd;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.support.DomainRegions;

/**
 * A protection domain on the adapter ({@code ibv_alloc_pd}). Registration is a system call
 * that pins pages, so the memory pools register once and reuse; it never belongs on a
 * per-RPC path.
 */
final class DisniProtectionDomain implements ProtectionDomain {

	private static final System.Logger logger = System.getLogger(DisniProtectionDomain.class.getName());

	private final DisniProvider provider;

	private final IbvPd pd;

	private final DomainRegions<DisniMemoryRegion> regions = new DomainRegions<>();

	/** The regions by the rkey they advertise, to apply a peer's Send with Invalidate. */
	private final Map<Integer, DisniMemoryRegion> byRkey = new ConcurrentHashMap<>();

	DisniProtectionDomain(DisniProvider provider, IbvPd pd) {
		this.provider = provider;
		this.pd = pd;
	}

	@Override
	public RdmaProvider provider() {
		return this.provider;
	}

	DisniProvider disniProvider() {
		return this.provider;
	}

	IbvPd ibvPd() {
		return this.pd;
	}

	void registrationMade() {
		this.provider.registrationMade();
	}

	void deregistrationMade() {
		this.provider.deregistrationMade();
	}

	@Override
	public MemoryRegion registerMemory(ByteBuffer directBuffer, Set<AccessFlag> access) {
		return this.regions
			.register(() -> new DisniMemoryRegion(this, RegistrationRequest.of(directBuffer, access)));
	}

	@Override
	public int registeredRegionCount() {
		return this.regions.count();
	}

	@Override
	public boolean isClosed() {
		return this.regions.isClosed();
	}

	@Override
	public void close() {
		if (!this.regions.close()) {
			return;
		}
		try {
			this.pd.deallocPd();
		}
		catch (Exception ex) {
			// EBUSY: a queue pair still uses it; the provider closes those first.
			logger.log(Level.WARNING, "ibv_dealloc_pd failed; close the queue pairs of a protection domain first", ex);
		}
		this.provider.protectionDomainClosed(this);
	}

	void rkeyIssued(DisniMemoryRegion region, int rkey) {
		this.byRkey.put(rkey, region);
	}

	void rkeyRetired(DisniMemoryRegion region, int rkey) {
		this.byRkey.remove(rkey, region);
	}

	/**
	 * A receive completion said a peer's Send with Invalidate invalidated one of this domain's
	 * rkeys (IBV_WC_WITH_INV): devices that allow it for ibv_reg_mr regions (Linux's siw does,
	 * RFC 5040 §6.10) have already made the key useless, so the region must say so too.
	 * @param rkey the invalidated rkey
	 */
	void invalidatedByPeer(int rkey) {
		DisniMemoryRegion region = this.byRkey.get(rkey);
		if (region != null) {
			region.invalidatedByPeer(rkey);
		}
	}

	void regionDeregistered(DisniMemoryRegion region) {
		this.regions.deregistered(region);
	}

	static String describe(IOException ex) {
		return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
	}

}
