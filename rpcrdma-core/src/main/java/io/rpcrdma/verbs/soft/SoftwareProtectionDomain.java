package io.rpcrdma.verbs.soft;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * A protection domain of a software provider: registers regions in the device's
 * {@link MemoryRegionTable} and keeps track of them so that closing the domain
 * deregisters what is left.
 */
public class SoftwareProtectionDomain implements ProtectionDomain {

	private final RdmaProvider provider;

	private final MemoryRegionTable table;

	private final Set<SoftwareMemoryRegion> regions = ConcurrentHashMap.newKeySet();

	private final Consumer<SoftwareProtectionDomain> onClose;

	private volatile boolean closed;

	/**
	 * Creates a domain.
	 * @param provider the owning provider
	 * @param table the device's region table
	 */
	public SoftwareProtectionDomain(RdmaProvider provider, MemoryRegionTable table) {
		this(provider, table, (pd) -> {
		});
	}

	/**
	 * Creates a domain that tells its provider when it is closed.
	 * @param provider the owning provider
	 * @param table the device's region table
	 * @param onClose called once when the domain is closed
	 */
	public SoftwareProtectionDomain(RdmaProvider provider, MemoryRegionTable table,
			Consumer<SoftwareProtectionDomain> onClose) {
		this.provider = provider;
		this.table = table;
		this.onClose = onClose;
	}

	@Override
	public RdmaProvider provider() {
		return this.provider;
	}

	@Override
	public MemoryRegion registerMemory(ByteBuffer directBuffer, Set<AccessFlag> access) {
		if (this.closed) {
			throw new IllegalStateException("The protection domain is closed; allocate a new one to register memory");
		}
		SoftwareMemoryRegion region = this.table.register(this, directBuffer, access);
		this.regions.add(region);
		if (this.closed) {
			region.deregister();
			throw new IllegalStateException("The protection domain was closed during registration");
		}
		return region;
	}

	/**
	 * The device's region table, for the provider's data path.
	 * @return the table
	 */
	public MemoryRegionTable table() {
		return this.table;
	}

	@Override
	public int registeredRegionCount() {
		return this.regions.size();
	}

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		for (SoftwareMemoryRegion region : List.copyOf(this.regions)) {
			region.deregister();
		}
		this.onClose.accept(this);
	}

	void regionDeregistered(SoftwareMemoryRegion region) {
		this.regions.remove(region);
	}

}
