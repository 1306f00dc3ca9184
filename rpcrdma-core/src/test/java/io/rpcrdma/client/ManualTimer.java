package io.rpcrdma.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A timer whose time moves only when a test advances it. */
final class ManualTimer implements CallTimer {

	private long now;

	private final List<Task> tasks = new ArrayList<>();

	@Override
	public synchronized Timeout schedule(Duration delay, Runnable task) {
		Task scheduled = new Task(this.now + delay.toNanos(), task);
		this.tasks.add(scheduled);
		return () -> {
			synchronized (this) {
				this.tasks.remove(scheduled);
			}
		};
	}

	/** Moves time forward, running every task that falls due, in order. */
	void advance(Duration duration) {
		long until;
		synchronized (this) {
			until = this.now + duration.toNanos();
		}
		while (true) {
			Task due;
			synchronized (this) {
				due = this.tasks.stream().filter((t) -> t.at <= until).min((a, b) -> Long.compare(a.at, b.at)).orElse(null);
				if (due == null) {
					this.now = until;
					return;
				}
				this.tasks.remove(due);
				this.now = due.at;
			}
			due.task.run();
		}
	}

	synchronized long nanoTime() {
		return this.now;
	}

	/** Tasks scheduled and neither run nor cancelled. */
	synchronized int scheduled() {
		return this.tasks.size();
	}

	private record Task(long at, Runnable task) {
	}

}
