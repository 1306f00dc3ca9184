package io.rpcrdma.demo.workload;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.demo.store.ObjectInfo;
import io.rpcrdma.demo.store.ObjectListing;
import io.rpcrdma.demo.store.ObjectNotFoundException;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.service.BulkData;

/**
 * Runs a mixed object-store workload: mostly small objects, some of 64 KiB to 1 MiB and a few
 * of tens of MiB, their contents moved by RDMA Read chunks (puts) and Write chunks (gets), with
 * inline metadata calls (stat, list, delete) in between. Every object read back is checked against the CRC-32C of what was stored;
 * a difference, or any failure other than the expected "not found" after a delete, stops the
 * run and is reported.
 */
public final class WorkloadRunner {

	/** How often progress is reported. */
	private static final long PROGRESS_MILLIS = 200;

	private final ObjectStore store;

	/**
	 * @param store the store to call, normally a client proxy
	 */
	public WorkloadRunner(ObjectStore store) {
		this.store = Objects.requireNonNull(store, "store");
	}

	/**
	 * Runs the workload and waits for it.
	 * @param plan what to do
	 * @param listener told of progress every {@value #PROGRESS_MILLIS} ms, on this thread
	 * @return what happened
	 * @throws InterruptedException if interrupted while waiting (the workers are stopped)
	 */
	public WorkloadResult run(WorkloadPlan plan, ProgressListener listener) throws InterruptedException {
		Shared shared = new Shared(plan);
		List<Worker> workers = new ArrayList<>();
		CountDownLatch done = new CountDownLatch(plan.threads());
		for (int i = 0; i < plan.threads(); i++) {
			Worker worker = new Worker(i, plan, shared);
			workers.add(worker);
			Thread thread = new Thread(() -> {
				try {
					worker.run();
				}
				finally {
					done.countDown();
				}
			}, "demo-workload-" + i);
			thread.setDaemon(true);
			thread.start();
		}
		try {
			while (!done.await(PROGRESS_MILLIS, TimeUnit.MILLISECONDS)) {
				report(plan, shared, listener);
			}
		}
		catch (InterruptedException ex) {
			shared.failure.compareAndSet(null, ex);
			throw ex;
		}
		report(plan, shared, listener);
		long elapsed = System.nanoTime() - shared.start;
		List<OperationStats> operations = new ArrayList<>();
		List<LatencyLog> all = new ArrayList<>();
		for (Operation operation : Operation.values()) {
			List<LatencyLog> logs = workers.stream().map((worker) -> worker.logs.get(operation)).toList();
			operations.add(OperationStats.of(operation.label(), logs));
			all.addAll(logs);
		}
		operations.add(OperationStats.of("all", all));
		return new WorkloadResult(Duration.ofNanos(elapsed), plan.threads(), List.copyOf(operations),
				shared.notFound.sum(), shared.failure.get());
	}

	private static void report(WorkloadPlan plan, Shared shared, ProgressListener listener) {
		long elapsed = System.nanoTime() - shared.start;
		long calls = shared.calls.sum();
		double byTime = (double) elapsed / plan.duration().toNanos();
		double byCalls = (plan.maxCalls() > 0) ? (double) calls / plan.maxCalls() : 0;
		listener.progress(Math.min(1, Math.max(byTime, byCalls)), calls, shared.bytes.sum(), elapsed);
	}

	/** State all workers share. */
	private static final class Shared {

		final long start = System.nanoTime();

		final long deadline;

		final AtomicLong issued = new AtomicLong();

		final LongAdder calls = new LongAdder();

		final LongAdder bytes = new LongAdder();

		final LongAdder notFound = new LongAdder();

		final AtomicReference<Throwable> failure = new AtomicReference<>();

		Shared(WorkloadPlan plan) {
			this.deadline = this.start + plan.duration().toNanos();
		}

	}

	/** One calling thread, with its own keys. */
	private final class Worker {

		final EnumMap<Operation, LatencyLog> logs = new EnumMap<>(Operation.class);

		private final WorkloadPlan plan;

		private final Shared shared;

		private final SplittableRandom random;

		private final String prefix;

		/** Random bytes objects are cut from, so that each object's contents differ. */
		private final byte[] source;

		/** What this worker stored, by key: the CRC-32C of the contents. */
		private final Map<String, Long> stored = new HashMap<>();

		private final List<String> keys = new ArrayList<>();

		/** The size of what this worker stored, by key. */
		private final Map<String, Integer> sizes = new HashMap<>();

		Worker(int index, WorkloadPlan plan, Shared shared) {
			this.plan = plan;
			this.shared = shared;
			this.random = new SplittableRandom(plan.seed() + index);
			this.prefix = plan.keyPrefix() + "t" + index + "/";
			this.source = new byte[plan.largestObject() + 4096];
			this.random.nextBytes(this.source);
			for (Operation operation : Operation.values()) {
				this.logs.put(operation, new LatencyLog());
			}
		}

		void run() {
			try {
				while (this.shared.failure.get() == null && System.nanoTime() < this.shared.deadline
						&& (this.plan.maxCalls() == 0 || this.shared.issued.incrementAndGet() <= this.plan.maxCalls())) {
					step();
				}
			}
			catch (RuntimeException | Error ex) {
				this.shared.failure.compareAndSet(null, ex);
			}
		}

		private void step() {
			int dice = this.random.nextInt(100);
			if (this.keys.isEmpty() || dice < 25) {
				put();
			}
			else if (dice < 60) {
				get();
			}
			else if (dice < 80) {
				stat();
			}
			else if (dice < 90) {
				list();
			}
			else {
				delete();
			}
		}

		private void put() {
			int dice = this.random.nextInt(100);
			String key;
			int size;
			if (dice < 85) {
				key = this.prefix + "small/" + this.random.nextInt(48);
				size = 64 + this.random.nextInt(4096 - 64);
			}
			else if (dice < 99) {
				key = this.prefix + "medium/" + this.random.nextInt(8);
				size = (64 << 10) + this.random.nextInt((1 << 20) - (64 << 10));
			}
			else {
				key = this.prefix + "large/0";
				int largest = this.plan.largestObject();
				size = largest / 2 + this.random.nextInt(largest - largest / 2 + 1);
			}
			size = Math.min(size, this.plan.largestObject());
			ByteBuffer contents = ByteBuffer.wrap(this.source, this.random.nextInt(4096), size);
			long crc = ObjectStoreService.crc32c(contents);
			long start = System.nanoTime();
			ObjectInfo info = WorkloadRunner.this.store.put(key, BulkData.wrap(contents));
			done(Operation.PUT, start, size);
			if (info.size() != size || info.crc32c() != crc) {
				throw new WorkloadCheckException("The store kept " + info + " for a put of " + size + " bytes with CRC-32C "
						+ Long.toHexString(crc));
			}
			this.sizes.put(key, size);
			if (this.stored.put(key, crc) == null) {
				this.keys.add(key);
			}
		}

		private void get() {
			String key = anyKey();
			long start = System.nanoTime();
			BulkData data;
			// Whole-object get offers a Write chunk of the largest object; objects this
			// worker knows to be at most MAX_READ_BYTES come back by one ranged read.
			if (this.sizes.get(key) > ObjectStore.MAX_READ_BYTES) {
				data = WorkloadRunner.this.store.get(key);
				done(Operation.GET, start, data.length());
			}
			else {
				data = WorkloadRunner.this.store.read(key, 0, ObjectStore.MAX_READ_BYTES);
				done(Operation.READ, start, data.length());
			}
			long crc = ObjectStoreService.crc32c(data.buffer());
			if (crc != this.stored.get(key)) {
				throw new WorkloadCheckException("Object '" + key + "' read back with CRC-32C " + Long.toHexString(crc)
						+ ", stored with " + Long.toHexString(this.stored.get(key)));
			}
		}

		private void stat() {
			String key = anyKey();
			long start = System.nanoTime();
			ObjectInfo info = WorkloadRunner.this.store.stat(key);
			done(Operation.STAT, start, 0);
			if (info.crc32c() != this.stored.get(key)) {
				throw new WorkloadCheckException("stat of '" + key + "' gave " + info + ", stored with CRC-32C "
						+ Long.toHexString(this.stored.get(key)));
			}
		}

		private void list() {
			String prefix = this.prefix + "small/";
			long start = System.nanoTime();
			ObjectListing listing = WorkloadRunner.this.store.list(prefix, "", 64);
			done(Operation.LIST, start, 0);
			long expected = this.stored.keySet().stream().filter((key) -> key.startsWith(prefix)).count();
			if (listing.objects().size() != expected) {
				throw new WorkloadCheckException(
						"Listing " + prefix + " gave " + listing.objects().size() + " objects, " + expected + " were stored");
			}
		}

		private void delete() {
			String key = this.keys.remove(this.random.nextInt(this.keys.size()));
			this.stored.remove(key);
			this.sizes.remove(key);
			long start = System.nanoTime();
			boolean existed = WorkloadRunner.this.store.delete(key);
			done(Operation.DELETE, start, 0);
			if (!existed) {
				throw new WorkloadCheckException("Deleting '" + key + "' found nothing, though it was stored");
			}
			// Reading it now must fail with the store's own exception, carried back as a fault.
			start = System.nanoTime();
			try {
				WorkloadRunner.this.store.stat(key);
				throw new WorkloadCheckException("'" + key + "' is still there after it was deleted");
			}
			catch (ObjectNotFoundException expected) {
				done(Operation.STAT, start, 0);
				this.shared.notFound.increment();
			}
		}

		private String anyKey() {
			return this.keys.get(this.random.nextInt(this.keys.size()));
		}

		private void done(Operation operation, long start, long bytes) {
			this.logs.get(operation).record(System.nanoTime() - start, bytes);
			this.shared.calls.increment();
			this.shared.bytes.add(bytes);
		}

	}

}
