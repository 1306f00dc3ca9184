package io.rpcrdma.verbs.soft;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.function.Consumer;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.support.DomainRegions;

/**
 * A protection domain of a software provider: registers regions in the device's
 * {@link MemoryRegionTable} and keeps track of them so that closing the domain
 * deregisters what is left.
 */
public class SoftwareProtectionDomain implements ProtectionDomain {

	private final RdmaProvider provider;

	private final MemoryRegionTable table;

	private final DomainRegions<SoftwareMemoryRegion> regions = new DomainRegions<>();

	private final Consumer<SoftwareProtectionDomain> onClose;

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
		return this.regions.register(() -> this.table.register(this, directBuffer, access));
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
		return this.regions.count();
	}

	@Override
	public boolean isClosed() {
		return this.regions.isClosed();
	}

	@Override
	public void close() {
		if (this.regions.close()) {
			this.onClose.accept(this);
		}
	}

	void regionDeregistered(SoftwareMemoryRegion region) {
		this.regions.deregistered(region);
	}

}
