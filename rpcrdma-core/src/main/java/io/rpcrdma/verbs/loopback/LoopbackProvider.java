package io.rpcrdma.verbs.loopback;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.soft.MemoryRegionTable;
import io.rpcrdma.verbs.soft.SoftwareProtectionDomain;

/**
 * The in-JVM RDMA provider: one instance is one software "device".
 */
public final class LoopbackProvider implements RdmaProvider {

	private final MemoryRegionTable regions = new MemoryRegionTable();

	private final Set<SoftwareProtectionDomain> domains = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	LoopbackProvider(RdmaProviderConfig config) {
	}

	@Override
	public String name() {
		return LoopbackProviderFactory.NAME;
	}

	@Override
	public ProtectionDomain allocateProtectionDomain() {
		checkOpen();
		SoftwareProtectionDomain pd = new SoftwareProtectionDomain(this, this.regions);
		this.domains.add(pd);
		return pd;
	}

	@Override
	public boolean isClosed() {
		return this.closed;
	}

	@Override
	public void close() {
		this.closed = true;
		for (SoftwareProtectionDomain pd : this.domains) {
			pd.close();
		}
		this.domains.clear();
	}

	private void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException("The loopback provider is closed; open a new one with RdmaProviders.open(\"loopback\")");
		}
	}

}
