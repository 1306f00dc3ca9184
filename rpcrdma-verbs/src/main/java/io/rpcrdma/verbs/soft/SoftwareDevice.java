package io.rpcrdma.verbs.soft;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.support.ProviderObjects;
import io.rpcrdma.verbs.support.QueuePairChecks;

/**
 * The device half of a software provider (loopback, siw), the same for both: one memory
 * region table for all its protection domains, as an adapter's, the objects it opened, and
 * the numbers of its queue pairs. What differs, connections and how work requests move, stays
 * with the provider.
 */
public final class SoftwareDevice {

	private final RdmaProvider provider;

	private final MemoryRegionTable regions = new MemoryRegionTable();

	private final ProviderObjects objects;

	// A random start, so that queue pair numbers of two devices (or of one device before
	// and after a restart) rarely meet; 24 bits, as a verbs QPN.
	private final AtomicInteger queuePairNumbers = new AtomicInteger(ThreadLocalRandom.current().nextInt(1, 1 << 20));

	/**
	 * Creates the device of a provider.
	 * @param provider the provider, owner of everything the device creates
	 * @param name the provider's name, as {@code RdmaProviders.open} takes it
	 */
	public SoftwareDevice(RdmaProvider provider, String name) {
		this.provider = provider;
		this.objects = new ProviderObjects(name);
	}

	/**
	 * What the provider has opened, and whether it is closed.
	 * @return the objects
	 */
	public ProviderObjects objects() {
		return this.objects;
	}

	/**
	 * Allocates a protection domain on the device's region table.
	 * @return the domain
	 * @throws IllegalStateException if the provider is closed
	 */
	public ProtectionDomain allocateProtectionDomain() {
		this.objects.checkOpen();
		SoftwareProtectionDomain pd = new SoftwareProtectionDomain(this.provider, this.regions,
				this.objects::protectionDomainClosed);
		this.objects.protectionDomainOpened(pd);
		return pd;
	}

	/**
	 * Creates a completion queue.
	 * @param capacity the number of completions it holds
	 * @param handler the notification handler, or {@code null} for a queue that is only polled
	 * @return the queue
	 * @throws IllegalStateException if the provider is closed
	 */
	public CompletionQueue createCompletionQueue(int capacity, CompletionHandler handler) {
		this.objects.checkOpen();
		SoftwareCompletionQueue cq = new SoftwareCompletionQueue(this.provider, capacity, handler,
				this.objects::completionQueueClosed);
		this.objects.completionQueueOpened(cq);
		return cq;
	}

	/**
	 * Creates a queue pair after the checks every provider makes.
	 * @param <Q> the provider's queue pair type
	 * @param attributes the requested attributes
	 * @param create creates the provider's queue pair with the number given
	 * @return the queue pair
	 * @throws IllegalStateException if the provider, or an object the attributes name, is closed
	 * @throws IllegalArgumentException if an object the attributes name belongs to another provider
	 */
	public <Q extends QueuePair> Q createQueuePair(QueuePairAttributes attributes, IntFunction<Q> create) {
		this.objects.checkOpen();
		QueuePairChecks.checkOwnership(this.provider, attributes);
		Q qp = create.apply(this.queuePairNumbers.getAndIncrement() & 0xffffff);
		this.objects.queuePairOpened(qp);
		return qp;
	}

}
