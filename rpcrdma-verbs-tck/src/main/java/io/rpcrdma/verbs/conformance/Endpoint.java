package io.rpcrdma.verbs.conformance;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.function.UnaryOperator;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;

/**
 * One side of a connection under test: a protection domain, separate send and receive
 * completion queues with recorders, a queue pair, and the connection once established.
 */
public final class Endpoint {

	/** The provider (device) of this side. */
	public final RdmaProvider provider;

	/** The protection domain of the queue pair. */
	public final ProtectionDomain pd;

	/** Send-queue completions. */
	public final CompletionRecorder sends;

	/** Receive completions. */
	public final CompletionRecorder receives;

	/** Connection events. */
	public final ConnectionEventRecorder events;

	/** The send completion queue. */
	public final CompletionQueue sendCq;

	/** The receive completion queue. */
	public final CompletionQueue recvCq;

	/** The queue pair. */
	public final QueuePair qp;

	/** The connection, once established. */
	public volatile RdmaConnection connection;

	/**
	 * Creates the endpoint's resources on a provider.
	 * @param provider the provider
	 * @param pd the protection domain, or {@code null} for a new one
	 * @param deadline how long recorders wait
	 * @param customizer adjusts the queue pair attributes
	 */
	public Endpoint(RdmaProvider provider, ProtectionDomain pd, Duration deadline,
			UnaryOperator<QueuePairAttributes> customizer) {
		this.provider = provider;
		this.pd = (pd != null) ? pd : provider.allocateProtectionDomain();
		this.sends = new CompletionRecorder(deadline);
		this.receives = new CompletionRecorder(deadline);
		this.events = new ConnectionEventRecorder(deadline);
		this.sendCq = provider.createCompletionQueue(4096, this.sends);
		this.recvCq = provider.createCompletionQueue(4096, this.receives);
		this.sends.start(this.sendCq);
		this.receives.start(this.recvCq);
		this.qp = provider.createQueuePair(customizer.apply(QueuePairAttributes.of(this.pd, this.sendCq, this.recvCq)));
	}

	/**
	 * Registers a new direct buffer filled with a byte value.
	 * @param size the size
	 * @param fill the byte every position holds
	 * @param access the access rights
	 * @return the region
	 */
	public MemoryRegion register(int size, int fill, AccessFlag... access) {
		ByteBuffer buffer = ByteBuffer.allocateDirect(size);
		for (int i = 0; i < size; i++) {
			buffer.put(i, (byte) fill);
		}
		EnumSet<AccessFlag> flags = EnumSet.noneOf(AccessFlag.class);
		for (AccessFlag flag : access) {
			flags.add(flag);
		}
		return this.pd.registerMemory(buffer, flags);
	}

	/**
	 * Registers a buffer whose byte {@code i} is {@code (seed + i) mod 256}.
	 * @param size the size
	 * @param seed the first byte
	 * @param access the access rights
	 * @return the region
	 */
	public MemoryRegion registerPattern(int size, int seed, AccessFlag... access) {
		MemoryRegion region = register(size, 0, access);
		fillPattern(region.buffer(), seed);
		return region;
	}

	/**
	 * Posts a receive covering a whole region.
	 * @param wrId the work request id
	 * @param region the region
	 */
	public void postReceive(long wrId, MemoryRegion region) {
		this.qp.postRecv(ReceiveWorkRequest.of(wrId, ScatterGatherEntry.of(region)));
	}

	/**
	 * Posts receives over consecutive slots of one region, in order: work request
	 * {@code firstWrId + i} receives into bytes {@code [i * slot, (i + 1) * slot)}.
	 * @param firstWrId the work request id of the first receive
	 * @param inbox the region the slots lie in
	 * @param slot the bytes each receive holds
	 * @param count how many receives
	 */
	public void postReceives(long firstWrId, MemoryRegion inbox, int slot, int count) {
		for (int i = 0; i < count; i++) {
			this.qp.postRecv(ReceiveWorkRequest.of(firstWrId + i, ScatterGatherEntry.of(inbox, i * slot, slot)));
		}
	}

	/**
	 * Posts receives, each into a region of its own.
	 * @param firstWrId the work request id of the first receive; the others follow it
	 * @param count how many receives
	 * @param size the size of each region
	 */
	public void postReceives(long firstWrId, int count, int size) {
		for (int i = 0; i < count; i++) {
			postReceive(firstWrId + i, register(size, 0, AccessFlag.LOCAL_WRITE));
		}
	}

	/**
	 * Posts a work request to the send queue and waits for the next send completion: this
	 * work request's when nothing else is outstanding (completions of one queue pair arrive
	 * in order).
	 * @param wr the work request, signaled
	 * @return the completion
	 */
	public Completion postAndAwait(SendWorkRequest wr) {
		this.qp.postSend(wr);
		return this.sends.next();
	}

	/**
	 * Fills a buffer with the pattern {@code (seed + i) mod 256}.
	 * @param buffer the buffer
	 * @param seed the first byte
	 */
	public static void fillPattern(ByteBuffer buffer, int seed) {
		for (int i = 0; i < buffer.capacity(); i++) {
			buffer.put(i, (byte) (seed + i));
		}
	}

}
