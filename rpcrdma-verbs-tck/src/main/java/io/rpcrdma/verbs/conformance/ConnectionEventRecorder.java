package io.rpcrdma.verbs.conformance;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.RdmaConnection;

/**
 * Records connection events and lets tests wait for one with a deadline.
 */
public final class ConnectionEventRecorder implements ConnectionEventListener {

	private final List<ConnectionEvent> events = new CopyOnWriteArrayList<>();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition arrived = this.lock.newCondition();

	private final Duration deadline;

	/**
	 * Creates a recorder.
	 * @param deadline how long {@link #await(ConnectionEventType)} waits
	 */
	public ConnectionEventRecorder(Duration deadline) {
		this.deadline = deadline;
	}

	@Override
	public void onEvent(RdmaConnection connection, ConnectionEvent event) {
		this.lock.lock();
		try {
			this.events.add(event);
			this.arrived.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Waits for the first event of a type.
	 * @param type the type
	 * @return the event
	 */
	public ConnectionEvent await(ConnectionEventType type) {
		long deadlineNanos = System.nanoTime() + this.deadline.toNanos();
		this.lock.lock();
		try {
			while (true) {
				for (ConnectionEvent event : this.events) {
					if (event.type() == type) {
						return event;
					}
				}
				long left = deadlineNanos - System.nanoTime();
				if (left <= 0) {
					fail("No " + type + " event within " + this.deadline + "; events so far: " + types());
				}
				this.arrived.awaitNanos(left);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted", ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The types of the events so far, in order.
	 * @return the types
	 */
	public List<ConnectionEventType> types() {
		List<ConnectionEventType> types = new ArrayList<>();
		for (ConnectionEvent event : this.events) {
			types.add(event.type());
		}
		return types;
	}

}
