package io.rpcrdma.client;

import java.util.function.BooleanSupplier;

import io.rpcrdma.verbs.WaitingCaller;

/**
 * The wait of a thread that makes a call and blocks until its outcome, as the layers above the
 * client see it: before posting the call the thread says it will wait ({@link #expect()}), so
 * that a provider offering a caller receive path (siw does) may let it read its own reply
 * while it waits ({@link #receiveUntil}); whoever completes the call says so
 * ({@link #outcomeArrived()}); and the thread ends the wait ({@link #end()}). It holds the
 * provider SPI's {@link WaitingCaller} so that the service layer need not reach down to the
 * verbs for it. One instance is reused by its owner from call to call: nothing is allocated per
 * call.
 */
public final class SynchronousWait {

	// Set by the owner before it posts, read by whoever completes the call.
	private volatile WaitingCaller caller;

	/** The owning thread is about to post a call and wait for its outcome. */
	public void expect() {
		this.caller = WaitingCaller.expect();
	}

	/**
	 * Runs the receive path of the connection the call was posted on, where the provider
	 * offers one and no other thread runs it, until {@code arrived} holds.
	 * @param arrived whether the outcome arrived
	 * @return {@code true} if it read until the outcome arrived; {@code false} if the owner
	 * should park instead
	 */
	public boolean receiveUntil(BooleanSupplier arrived) {
		WaitingCaller waiting = this.caller;
		return waiting != null && waiting.receiveUntil(arrived);
	}

	/** The call's outcome arrived: a thread reading on the owner's behalf stops. */
	public void outcomeArrived() {
		WaitingCaller waiting = this.caller;
		if (waiting != null) {
			waiting.outcomeArrived();
		}
	}

	/** The owner is done waiting; the next {@link #expect()} starts a new wait. */
	public void end() {
		WaitingCaller waiting = this.caller;
		if (waiting != null) {
			waiting.end();
			this.caller = null;
		}
	}

}
