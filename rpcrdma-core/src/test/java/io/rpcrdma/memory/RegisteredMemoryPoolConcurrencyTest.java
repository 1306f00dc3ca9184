package io.rpcrdma.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many threads lease and release at random from small classes, so that classes grow
 * concurrently, run dry and make lessees wait. Every lessee stamps its buffers with its
 * thread and iteration and checks the stamps before releasing: a buffer handed to two
 * lessees at once shows up as a foreign stamp, and independently as an address leased
 * twice.
 */
class RegisteredMemoryPoolConcurrencyTest {

	private static final int THREADS = 4;

	private static final int ITERATIONS = 4000;

	private static final int MAX_HELD = 3;

	private static final BufferRole[] ROLES = { BufferRole.SEND, BufferRole.WRITE_CHUNK, BufferRole.READ_CHUNK,
			BufferRole.LOCAL_BULK };

	@ParameterizedTest(name = "leak tracking {0}")
	@ValueSource(booleans = { false, true })
	void concurrentLesseesNeverShareABufferAndTheStatisticsAddUp(boolean leakTracking) throws Exception {
		try (LoopbackDomain domain = new LoopbackDomain()) {
			// Fewer buffers per class than lessees may hold in all, so that classes run dry.
			List<SizeClass> classes = List.of(new SizeClass(BufferRole.SEND, 1024, 1, 3),
					new SizeClass(BufferRole.WRITE_CHUNK, 4096, 0, 3), new SizeClass(BufferRole.READ_CHUNK, 8192, 0, 3),
					new SizeClass(BufferRole.LOCAL_BULK, 2048, 0, 3));
			MemoryPoolConfig config = new MemoryPoolConfig(classes, 16 << 10, 1 << 20, Duration.ofSeconds(10),
					leakTracking, true, 1 << 20);
			RegisteredMemoryPool pool = new RegisteredMemoryPool(domain.pd, config);
			Set<Long> leasedAddresses = ConcurrentHashMap.newKeySet();
			Queue<String> failures = new ConcurrentLinkedQueue<>();
			AtomicLong leases = new AtomicLong();
			CountDownLatch start = new CountDownLatch(1);
			CountDownLatch done = new CountDownLatch(THREADS);
			List<Thread> threads = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int id = t + 1;
				Thread thread = new Thread(() -> {
					try {
						start.await();
						run(pool, id, leasedAddresses, failures, leases);
					}
					catch (Throwable ex) {
						failures.add("lessee " + id + " failed: " + ex);
					}
					finally {
						done.countDown();
					}
				}, "lessee-" + id);
				threads.add(thread);
				thread.start();
			}
			start.countDown();
			assertThat(done.await(30, TimeUnit.SECONDS)).as("lessees finished").isTrue();
			assertThat(failures).isEmpty();

			MemoryPoolStats stats = pool.stats();
			assertThat(stats.leases()).isEqualTo(leases.get());
			assertThat(stats.leasedBytes()).isZero();
			assertThat(stats.freeBytes()).isEqualTo(stats.registeredBytes());
			assertThat(stats.registeredBytes()).isLessThanOrEqualTo(config.maxRegisteredBytes());
			assertThat(stats.registeredRegions()).isEqualTo(domain.pd.registeredRegionCount());
			for (SizeClassStats perClass : stats.sizeClasses()) {
				assertThat(perClass.leased()).as(perClass.name()).isZero();
				assertThat(perClass.free()).as(perClass.name()).isEqualTo(perClass.buffers());
			}
			assertThat(pool.leaks()).isEmpty();

			// The free lists lost nothing and hold nothing twice: draining each class yields
			// exactly its registered buffers, all distinct.
			for (SizeClassStats perClass : stats.sizeClasses()) {
				Set<Long> drained = new HashSet<>();
				List<RegisteredBuffer> held = new ArrayList<>();
				RegisteredBuffer buffer;
				while ((buffer = pool.tryLease(perClass.role(), perClass.bufferSize())) != null) {
					held.add(buffer);
					assertThat(drained.add(buffer.address())).as("%s handed out twice", buffer).isTrue();
				}
				assertThat(held).as(perClass.name()).hasSize(perClass.buffers());
				held.forEach(RegisteredBuffer::release);
			}
			pool.close();
			assertThat(domain.pd.registeredRegionCount()).isZero();
		}
	}

	private static void run(RegisteredMemoryPool pool, int id, Set<Long> leasedAddresses, Queue<String> failures,
			AtomicLong leases) throws InterruptedException {
		SplittableRandom random = new SplittableRandom(id * 7919L);
		List<RegisteredBuffer> held = new ArrayList<>();
		List<Long> stamps = new ArrayList<>();
		for (int i = 0; i < ITERATIONS && failures.isEmpty(); i++) {
			boolean lease = held.isEmpty() || (held.size() < MAX_HELD && random.nextBoolean());
			if (lease) {
				BufferRole role = ROLES[random.nextInt(ROLES.length)];
				// Block only while holding nothing, so that no lessee waits while holding
				// buffers another waiter needs.
				RegisteredBuffer buffer = held.isEmpty() ? pool.lease(role, 1) : pool.tryLease(role, 1);
				if (buffer == null) {
					continue;
				}
				leases.incrementAndGet();
				if (!leasedAddresses.add(buffer.address())) {
					failures.add(buffer + " was leased to lessee " + id + " while another lessee held it");
				}
				long stamp = ((long) id << 32) | i;
				stamp(buffer.buffer(), stamp);
				held.add(buffer);
				stamps.add(stamp);
			}
			else {
				int victim = random.nextInt(held.size());
				RegisteredBuffer buffer = held.remove(victim);
				long stamp = stamps.remove(victim);
				check(buffer, stamp, id, failures);
				leasedAddresses.remove(buffer.address());
				buffer.release();
			}
		}
		for (int k = 0; k < held.size(); k++) {
			check(held.get(k), stamps.get(k), id, failures);
			leasedAddresses.remove(held.get(k).address());
			held.get(k).release();
		}
	}

	private static void stamp(ByteBuffer view, long stamp) {
		int length = view.capacity();
		view.putLong(0, stamp);
		view.putLong(length / 2, stamp);
		view.putLong(length - Long.BYTES, stamp);
	}

	private static void check(RegisteredBuffer buffer, long stamp, int id, Queue<String> failures) {
		ByteBuffer view = buffer.buffer();
		int length = view.capacity();
		for (int offset : new int[] { 0, length / 2, length - Long.BYTES }) {
			long found = view.getLong(offset);
			if (found != stamp) {
				failures.add("Lessee " + id + " found stamp 0x" + Long.toHexString(found) + " instead of 0x"
						+ Long.toHexString(stamp) + " at offset " + offset + " of " + buffer
						+ ": another lessee wrote into its buffer");
			}
		}
	}

}
