package io.rpcrdma.benchmarks.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A machine kept busy on purpose: one thread per core spinning on arithmetic, for the cases
 * that measure the contenders on a busy host, where every extra thread a call wakes has to
 * wait for a scheduler slice. Closing it stops and joins the threads.
 */
final class BusyMachine implements AutoCloseable {

	private final List<Thread> spinners = new ArrayList<>();

	private volatile boolean running = true;

	private BusyMachine(int threads) throws InterruptedException {
		CountDownLatch started = new CountDownLatch(threads);
		for (int i = 0; i < threads; i++) {
			Thread spinner = new Thread(() -> spin(started), "busy-machine-" + i);
			spinner.setDaemon(true);
			this.spinners.add(spinner);
			spinner.start();
		}
		if (!started.await(10, TimeUnit.SECONDS)) {
			close();
			throw new IllegalStateException("The load threads did not start within 10 s");
		}
	}

	/**
	 * Starts the load.
	 * @param threads how many spinning threads, normally one per core
	 * @return the running load
	 * @throws InterruptedException if interrupted while the threads start
	 */
	static BusyMachine start(int threads) throws InterruptedException {
		return new BusyMachine(threads);
	}

	/**
	 * The load's threads.
	 * @return the threads, alive until closed
	 */
	List<Thread> threads() {
		return List.copyOf(this.spinners);
	}

	private void spin(CountDownLatch started) {
		started.countDown();
		long x = 0x9E3779B97F4A7C15L;
		while (this.running) {
			for (int i = 0; i < 10_000; i++) {
				x ^= x << 13;
				x ^= x >>> 7;
				x ^= x << 17;
			}
		}
		if (x == 42) {
			// Keeps the loop from being optimised away.
			System.out.print("");
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		for (Thread spinner : this.spinners) {
			spinner.join(TimeUnit.SECONDS.toMillis(10));
		}
	}

}
