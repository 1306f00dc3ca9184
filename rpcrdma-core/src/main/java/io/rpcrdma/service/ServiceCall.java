package io.rpcrdma.service;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.ReplyCallback;
import io.rpcrdma.client.SynchronousWait;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * One call of a procedure through a service proxy: its arguments as the {@link CallBody}
 * (written again for a retry) and the {@link ReplyCallback} that decodes the reply and hands
 * the result or the fault over — to the thread waiting in a synchronous method
 * ({@link Waiting}, reused from call to call by each thread) or to the future an asynchronous
 * method returned ({@link Async}).
 */
abstract class ServiceCall implements CallBody, ReplyCallback {

	private ProcedureCaller caller;

	private Object[] arguments;

	/** Bit {@code i} set when argument {@code i} travels from a registered buffer: only its length is written. */
	private long registeredMask;

	private ServiceCallObserver.Observation observation;

	private Conveyance conveyance;

	private OpaqueAuth credential = AuthNone.INSTANCE;

	void start(ProcedureCaller procedureCaller, Object[] values, long registered,
			ServiceCallObserver.Observation observed, Conveyance conveyed, OpaqueAuth auth) {
		this.caller = procedureCaller;
		this.arguments = values;
		this.registeredMask = registered;
		this.observation = observed;
		this.conveyance = conveyed;
		this.credential = auth;
	}

	@Override
	public OpaqueAuth credential() {
		return this.credential;
	}

	@Override
	@SuppressWarnings("unchecked")
	public void write(XdrEncoder encoder) {
		ProcedureDescriptor procedure = this.caller.procedure();
		if (this.registeredMask == 0) {
			procedure.encodeArguments(this.arguments, encoder);
			return;
		}
		for (int i = 0; i < this.arguments.length; i++) {
			if (i < Long.SIZE && (this.registeredMask & (1L << i)) != 0) {
				encoder.writeInt(((BulkData) this.arguments[i]).length());
			}
			else {
				((XdrCodec<Object>) procedure.parameters().get(i).codec()).encode(this.arguments[i], encoder);
			}
		}
	}

	@Override
	public TraceContext traceContext() {
		ServiceCallObserver.Observation observed = this.observation;
		return (observed != null) ? observed.traceContext() : null;
	}

	@Override
	public String procedureName() {
		return this.caller.name();
	}

	@Override
	public final void replied(ReceivedReply reply) {
		Object value;
		try {
			value = this.caller.decode(reply, this.observation, this.conveyance);
		}
		catch (CompletionException ex) {
			end(null, ex.getCause());
			return;
		}
		catch (RuntimeException ex) {
			end(null, ex);
			return;
		}
		end(value, null);
	}

	@Override
	public final void failed(Throwable failure) {
		Throwable cause = failure;
		while ((cause instanceof CompletionException) && cause.getCause() != null) {
			cause = cause.getCause();
		}
		this.observation.stop(outcomeOf(cause), this.conveyance, cause);
		end(null, cause);
	}

	private void end(Object value, Throwable failure) {
		this.arguments = null;
		this.observation = null;
		if (failure != null) {
			fault(failure);
		}
		else {
			result(value);
		}
	}

	/** The method returned this value. */
	abstract void result(Object value);

	/** The method threw this, or the call failed with it. */
	abstract void fault(Throwable failure);

	private static CallOutcome outcomeOf(Throwable failure) {
		if (failure instanceof CallTimeoutException) {
			return CallOutcome.TIMEOUT;
		}
		if (failure instanceof ConnectionLostException) {
			return CallOutcome.CONNECTION_LOST;
		}
		return CallOutcome.ERROR;
	}

	/**
	 * A synchronous method's call: the calling thread waits until the outcome arrives, reading
	 * the reply itself where the provider lets it ({@link SynchronousWait}), else parked. Each
	 * thread reuses one, so a synchronous call allocates nothing here.
	 */
	static final class Waiting extends ServiceCall {

		private static final ThreadLocal<Waiting> CURRENT = ThreadLocal.withInitial(Waiting::new);

		private static final AtomicIntegerFieldUpdater<Waiting> STATE = AtomicIntegerFieldUpdater.newUpdater(Waiting.class,
				"state");

		private static final int WAITING = 0;

		private static final int DONE = 1;

		/** The waiter was interrupted and left: the outcome, when it comes, goes nowhere. */
		private static final int ABANDONED = 2;

		private final Thread owner = Thread.currentThread();

		private final BooleanSupplier outcomeArrived = () -> this.state != WAITING;

		private volatile int state;

		// The thread as a caller that may read its own reply; expected before the call is posted.
		private final SynchronousWait receive = new SynchronousWait();

		private boolean busy;

		private Object value;

		private Throwable failure;

		/** Whether the failure came from another thread, so lacks the caller's frames. */
		private boolean failedElsewhere;

		/** @return this thread's waiting call, or a new one if it is in use (a nested call) */
		static Waiting acquire() {
			Waiting waiting = CURRENT.get();
			if (waiting.busy) {
				waiting = new Waiting();
			}
			waiting.busy = true;
			waiting.value = null;
			waiting.failure = null;
			waiting.failedElsewhere = false;
			waiting.state = WAITING;
			waiting.receive.expect();
			return waiting;
		}

		@Override
		void result(Object returned) {
			this.value = returned;
			arrived();
		}

		@Override
		void fault(Throwable thrown) {
			this.failure = thrown;
			this.failedElsewhere = Thread.currentThread() != this.owner;
			arrived();
		}

		private void arrived() {
			if (STATE.compareAndSet(this, WAITING, DONE)) {
				this.receive.outcomeArrived();
				if (Thread.currentThread() != this.owner) {
					LockSupport.unpark(this.owner);
				}
			}
		}

		/**
		 * Waits for the outcome, on the thread that acquired this.
		 * @return the method's result
		 * @throws Throwable what the method threw, or why the call failed
		 * @throws InterruptedException if the thread was interrupted first; the call may still
		 * run, and its outcome is dropped
		 */
		Object await() throws Throwable {
			boolean interrupted = false;
			while (this.state == WAITING) {
				if (this.receive.receiveUntil(this.outcomeArrived)) {
					break;
				}
				if (this.state != WAITING) {
					break;
				}
				LockSupport.park(this);
				if (Thread.interrupted()) {
					if (STATE.compareAndSet(this, WAITING, ABANDONED)) {
						if (CURRENT.get() == this) {
							// Whatever comes for this call must not reach the thread's next one.
							CURRENT.set(new Waiting());
						}
						throw new InterruptedException();
					}
					interrupted = true;
				}
			}
			if (interrupted) {
				// The outcome won the race; the interrupt stays for the caller to see.
				Thread.currentThread().interrupt();
			}
			if (this.failure != null) {
				throw this.failedElsewhere ? CallerFrames.onCallersThread(this.failure) : this.failure;
			}
			return this.value;
		}

		/** The thread is done with it. */
		void release() {
			this.receive.end();
			this.busy = false;
			this.value = null;
			this.failure = null;
		}

	}

	/** An asynchronous method's call: completes the future it returned. */
	static final class Async extends ServiceCall {

		final CompletableFuture<Object> future = new CompletableFuture<>();

		@Override
		void result(Object returned) {
			this.future.complete(returned);
		}

		@Override
		void fault(Throwable thrown) {
			this.future.completeExceptionally(thrown);
		}

	}

}
