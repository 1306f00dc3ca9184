package io.rpcrdma.client;

import java.time.Duration;
import java.util.Optional;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * One call through an {@link RpcClientPool}, recycled for the next: it picks a connection, is
 * the {@link ReplyCallback} of each attempt, gives the connection back when the attempt ends,
 * and sends an idempotent call again on another connection when its connection was lost, as
 * the pool's {@link RetryPolicy} allows, within the call's one deadline. Told the outcome of one
 * attempt at a time, so the pool reuses it once it has passed the final outcome on.
 */
final class PoolCall implements ReplyCallback {

	private final RpcClientPool pool;

	private int program;

	private int version;

	private int procedure;

	private CallBody arguments;

	private CallChunks shape;

	/** The pool sends a call again only to the same server: see the rule. */
	private final CallAttempts attempts = new CallAttempts(CallAttempts.IDEMPOTENT_AFTER_CONNECTION_LOSS);

	private ReplyCallback callback;

	/** The connection of the attempt under way. */
	private RpcClient client;

	PoolCall(RpcClientPool pool) {
		this.pool = pool;
	}

	void start(int program, int version, int procedure, CallBody arguments, CallChunks shape, boolean idempotent,
			Duration timeout, ReplyCallback callback) {
		this.program = program;
		this.version = version;
		this.procedure = procedure;
		this.arguments = arguments;
		this.shape = shape;
		this.attempts.start(timeout, idempotent);
		this.callback = callback;
		attempt(timeout);
	}

	/** Sends an attempt on the best open connection, or on the next to open. */
	private void attempt(Duration remaining) {
		this.attempts.begin();
		RpcClient ready = this.pool.acquireNow();
		if (ready != null) {
			sendOn(ready, remaining);
			return;
		}
		this.pool.acquire(remaining, this).whenComplete((opened, error) -> {
			if (error != null) {
				end(null, error);
			}
			else {
				sendOn(opened, this.attempts.remaining());
			}
		});
	}

	/**
	 * The call as messages name it, while it is under way: "Greeter.hello (program 0x2a3f0001
	 * version 1 procedure 1)". Only for failures: it allocates.
	 */
	String describe() {
		String numbers = "program " + ProgramNumberText.hex(this.program) + " version "
				+ Integer.toUnsignedString(this.version) + " procedure " + Integer.toUnsignedString(this.procedure);
		CallBody body = this.arguments;
		String name = (body != null) ? body.procedureName() : null;
		return (name != null) ? name + " (" + numbers + ")" : numbers;
	}

	private void sendOn(RpcClient chosen, Duration remaining) {
		this.client = chosen;
		this.pool.callerOf(chosen).call(this.program, this.version, this.procedure, this.arguments, this.shape,
				this.attempts.idempotent(), remaining, this);
	}

	@Override
	public void replied(ReceivedReply reply) {
		this.pool.finished(this.client);
		end(reply, null);
	}

	@Override
	public void failed(Throwable failure) {
		this.pool.finished(this.client);
		this.client = null;
		Optional<Duration> delay = this.attempts.next(failure, this.pool.retryPolicy());
		if (delay.isEmpty()) {
			end(null, failure);
			return;
		}
		this.pool.countRetry();
		this.pool.timer().schedule(delay.get(), () -> attempt(this.attempts.remaining()));
	}

	/** Passes the final outcome on; this object is reused from here. */
	private void end(ReceivedReply reply, Throwable failure) {
		ReplyCallback told = this.callback;
		this.callback = null;
		this.arguments = null;
		this.shape = null;
		this.client = null;
		this.pool.recycle(this);
		if (failure == null) {
			told.replied(reply);
		}
		else {
			told.failed(RetryPolicy.unwrap(failure));
		}
	}

}
