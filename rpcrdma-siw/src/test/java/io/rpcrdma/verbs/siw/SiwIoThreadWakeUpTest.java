package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Work that may wait for the I/O thread's select to end by itself ({@link SiwIoThread#executeSoon})
 * wakes the thread only when that end is further off than the work may wait: a busy thread,
 * whose timers end its selects every millisecond, is not woken (a caller leaving a long lead
 * used to wake it once per call); an idle one, waiting without a timeout, is.
 */
class SiwIoThreadWakeUpTest {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private static final int TASKS = 100;

	private final SiwIoThread io = newThread();

	// Written by the I/O thread under test only.
	private boolean secondWritten;

	@AfterEach
	void shutdown() throws InterruptedException {
		this.io.shutdown(0);
		this.io.thread().join(DEADLINE.toMillis());
	}

	@Test
	void aThreadWhoseSelectEndsWithinTheWaitIsNotWoken() throws Exception {
		// A timer every millisecond, as a loaded thread has (the connections' caller-window looks).
		this.io.execute(new Ticker());
		CountDownLatch ticking = new CountDownLatch(1);
		this.io.execute(ticking::countDown);
		assertThat(ticking.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the thread runs tasks").isTrue();
		long before = this.io.wakeUps();
		runOneAfterAnother((task) -> this.io.executeSoon(task, ReceiveRole.CALLER_NANOS));
		assertThat(this.io.wakeUps() - before).as("wake-ups for %d tasks that may wait 2 ms", TASKS)
			.isLessThanOrEqualTo(TASKS / 10);
	}

	@Test
	void aThreadWaitingWithoutATimeoutIsWokenForWorkThatMayWaitLittle() throws Exception {
		long before = this.io.wakeUps();
		// No connection, no timer: the thread's select has no timeout.
		runOneAfterAnother((task) -> this.io.executeSoon(task, ReceiveRole.CALLER_NANOS));
		assertThat(this.io.wakeUps() - before).as("wake-ups for %d tasks", TASKS).isPositive();
	}

	@Test
	void bytesOwedArePolledForBeforeTheThreadSleeps() throws Exception {
		// A poll longer than the test's deadline: the thread is sure to be polling when the byte comes.
		SiwIoThread polling = new SiwIoThread("siw-io-owed", (now) -> false, DEADLINE.toNanos() * 2);
		// This test's own wait keeps a CPU busy: a yield may take long without ending the poll.
		polling.betweenPolls(Thread::yield, Long.MAX_VALUE, 0);
		polling.start();
		Pipe pipe = Pipe.open();
		try {
			pipe.source().configureBlocking(false);
			CountDownLatch readable = new CountDownLatch(1);
			polling.execute(() -> {
				polling.whenReadable(pipe.source(), readable::countDown);
				polling.bytesOwed();
			});
			long end = System.nanoTime() + DEADLINE.toNanos();
			while (polling.owedPolls()[0] == 0) {
				assertThat(end - System.nanoTime()).as("the thread polls for the bytes owed").isPositive();
				Thread.onSpinWait();
			}
			pipe.sink().write(ByteBuffer.wrap(new byte[] { 1 }));
			assertThat(readable.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the bytes are seen").isTrue();
			// The readiness is acted on inside the poll, which counts its hit just after.
			while (polling.owedPolls()[1] == 0) {
				assertThat(end - System.nanoTime()).as("the poll that saw the bytes is counted").isPositive();
				Thread.onSpinWait();
			}
			assertThat(polling.owedPolls()).as("polls, and polls that found bytes").containsExactly(1, 1);
		}
		finally {
			polling.shutdown(0);
			pipe.sink().close();
			pipe.source().close();
			polling.thread().join(DEADLINE.toMillis());
		}
	}

	@Test
	void aThreadThatServedAReadySocketPollsBeforeItSleeps() throws Exception {
		// A poll longer than the test's deadline: the thread is sure to be polling when the second byte comes.
		long[] polls = serveBytes(2, DEADLINE.toNanos() * 2, true, null);
		assertThat(polls[1]).as("polls after serving that found the next byte").isPositive();
		assertThat(polls[0]).as("polls after serving").isGreaterThanOrEqualTo(polls[1]);
	}

	@Test
	void aThreadWithoutAPollSleepsRightAfterServing() throws Exception {
		assertThat(serveBytes(2, 0, false, null)).as("polls after serving, and those that found a byte")
			.containsExactly(0, 0);
	}

	@Test
	void aPollWhoseYieldTakesLongEndsAndStopsPolls() throws Exception {
		// Every CPU busy: the yield between two tries takes longer than CONTENDED_YIELD_NANOS, the
		// second byte coming meanwhile. The poll (far from its end) stops rather than catching
		// it, and the third and fourth bytes are served without a poll (the back-off alone
		// would skip one).
		long[] polls = serveBytes(4, DEADLINE.toNanos() * 2, true, (pipe) -> () -> {
			try {
				if (!this.secondWritten) {
					this.secondWritten = true;
					pipe.sink().write(ByteBuffer.wrap(new byte[] { 2 }));
				}
				Thread.sleep(2 * TimeUnit.NANOSECONDS.toMillis(SiwIoThread.CONTENDED_YIELD_NANOS));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		assertThat(polls).as("polls after serving, and those that caught a byte after a long yield")
			.containsExactly(1, 0);
	}

	/**
	 * A thread with the given poll serves a pipe that becomes readable {@code bytes} times, a
	 * byte each: the test writes each once the one before is served, the second once the thread
	 * polls after the first if {@code awaitPoll}, and not at all if {@code betweenPolls} does.
	 * @param betweenPolls what the thread does between two tries of a poll, given the pipe, and
	 * writes the second byte; {@code null} for a yield, the test writing it
	 * @return the thread's polls after serving, and those that found a socket ready
	 */
	private static long[] serveBytes(int bytes, long pollNanos, boolean awaitPoll,
			Function<Pipe, Runnable> betweenPolls) throws Exception {
		SiwIoThread polling = new SiwIoThread("siw-io-served", (now) -> false, pollNanos);
		Pipe pipe = Pipe.open();
		if (betweenPolls != null) {
			polling.betweenPolls(betweenPolls.apply(pipe), SiwIoThread.CONTENDED_YIELD_NANOS, DEADLINE.toNanos() * 2);
		}
		else {
			// This test's own wait keeps a CPU busy: a yield may take long without ending the poll.
			polling.betweenPolls(Thread::yield, Long.MAX_VALUE, 0);
		}
		polling.start();
		try {
			pipe.source().configureBlocking(false);
			CountDownLatch[] served = new CountDownLatch[bytes];
			for (int i = 0; i < bytes; i++) {
				served[i] = new CountDownLatch(1);
			}
			polling.execute(() -> serveFrom(polling, pipe, served, 0));
			long end = System.nanoTime() + DEADLINE.toNanos();
			for (int i = 0; i < bytes; i++) {
				if (i == 1) {
					while (awaitPoll && polling.servedPolls()[0] == 0) {
						assertThat(end - System.nanoTime()).as("the thread polls after serving").isPositive();
						Thread.onSpinWait();
					}
				}
				if (i != 1 || betweenPolls == null) {
					pipe.sink().write(ByteBuffer.wrap(new byte[] { (byte) i }));
				}
				assertThat(served[i].await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("byte %d is seen", i).isTrue();
			}
			// The readiness is acted on inside the poll, which counts its hit just after.
			while (awaitPoll && betweenPolls == null && polling.servedPolls()[1] == 0) {
				assertThat(end - System.nanoTime()).as("the poll that saw the byte is counted").isPositive();
				Thread.onSpinWait();
			}
			return polling.servedPolls();
		}
		finally {
			polling.shutdown(0);
			pipe.sink().close();
			pipe.source().close();
			polling.thread().join(DEADLINE.toMillis());
		}
	}

	/** On the thread: waits for byte {@code i}, and when it is served for the next. */
	private static void serveFrom(SiwIoThread thread, Pipe pipe, CountDownLatch[] served, int i) {
		thread.whenReadable(pipe.source(), () -> {
			drain(pipe);
			served[i].countDown();
			if (i + 1 < served.length) {
				serveFrom(thread, pipe, served, i + 1);
			}
		});
	}

	private static void drain(Pipe pipe) {
		try {
			pipe.source().read(ByteBuffer.allocate(16));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void runOneAfterAnother(Consumer<Runnable> queue) throws InterruptedException {
		for (int i = 0; i < TASKS; i++) {
			CountDownLatch ran = new CountDownLatch(1);
			queue.accept(ran::countDown);
			assertThat(ran.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("task %d ran", i).isTrue();
		}
	}

	private static SiwIoThread newThread() {
		try {
			SiwIoThread thread = new SiwIoThread("siw-io-test", (now) -> false);
			thread.start();
			return thread;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Schedules itself every millisecond on the thread. */
	private final class Ticker implements Runnable {

		private final SiwIoThread.Timer timer = new SiwIoThread.Timer(this);

		@Override
		public void run() {
			SiwIoThreadWakeUpTest.this.io.schedule(this.timer, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1));
		}

	}

}
