package io.rpcrdma.verbs.support;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.rpcrdma.verbs.MemoryRegion;

/**
 * The memory regions of one protection domain and whether it is closed, shared by the
 * providers' domains: closing a domain deregisters the regions left in it, as
 * {@code ibv_dealloc_pd} needs, and a domain closed while a registration runs takes that
 * registration back rather than leak it.
 *
 * @param <R> the provider's region type
 */
public final class DomainRegions<R extends MemoryRegion> {

	private final Set<R> regions = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Registers a region, unless the domain is closed.
	 * @param registration registers the region (with the provider's own checks)
	 * @return the region
	 * @throws IllegalStateException if the domain is closed, before or during registration
	 */
	public R register(Supplier<R> registration) {
		if (this.closed) {
			throw new IllegalStateException("The protection domain is closed; allocate a new one to register memory");
		}
		R region = registration.get();
		this.regions.add(region);
		if (this.closed) {
			region.deregister();
			throw new IllegalStateException("The protection domain was closed during registration");
		}
		return region;
	}

	/**
	 * A region was deregistered (by its owner, or by {@link #close()}).
	 * @param region the region
	 */
	public void deregistered(R region) {
		this.regions.remove(region);
	}

	/**
	 * The number of regions registered and not deregistered.
	 * @return the count
	 */
	public int count() {
		return this.regions.size();
	}

	/**
	 * Whether the domain is closed.
	 * @return {@code true} once {@link #close()} was called
	 */
	public boolean isClosed() {
		return this.closed;
	}

	/**
	 * Closes the domain: deregisters every region left.
	 * @return {@code false} if it was closed before, and nothing was done
	 */
	public boolean close() {
		if (this.closed) {
			return false;
		}
		this.closed = true;
		// A copy, as each region leaves the set while it deregisters.
		for (R region : List.copyOf(this.regions)) {
			region.deregister();
		}
		return true;
	}

}
