package io.rpcrdma.client;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.transport.CallCompletion;
import io.rpcrdma.transport.TransportClosedException;
import io.rpcrdma.xdr.OpaquePadding;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrException;

/**
 * One call from registration to its end, recycled for the next call on the same connection: the
 * {@link CallCompletion} the transport tells, the deadline the {@link DeadlineWheel} runs, the
 * buffer an inline reply is copied into and the decoder that reads its results. Reused, so a
 * small call costs no memory for any of them.
 * <p>
 * One use (a generation) goes like this:
 * <ul>
 * <li>{@link PendingCalls#register} starts it with two holds: the transport's, until it calls
 * {@link #replied} or {@link #failed}, and the caller's, until the outcome was handed over and,
 * for a reply, the {@link ReceivedReply} released.</li>
 * <li>The first of reply, transport failure, deadline, cancellation and connection loss ends it:
 * a compare-and-set on a word holding the generation and a done bit, so a deadline or a
 * cancellation meant for an earlier use can never end a later one. The winner takes it out of
 * the table, cancels the deadline and tells the {@link ReplyCallback}. A reply arriving after
 * that is dropped and counted (RFC 5531 §9: the xid alone matches a reply to its call).</li>
 * <li>The last hold released puts it back on the table's free list.</li>
 * </ul>
 */
final class ClientCall implements CallCompletion, DeadlineWheel.Expiry {

	/**
	 * Replies up to this size are copied into the call's own reused buffer; larger ones (rare:
	 * the inline threshold is a few KiB) get a buffer of their own from the transport.
	 */
	static final int REUSED_REPLY_BUFFER_LIMIT = 16 * 1024;

	private static final System.Logger logger = System.getLogger(ClientCall.class.getName());

	private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

	private static final VarHandle STATE;

	private static final VarHandle HOLDS;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			STATE = lookup.findVarHandle(ClientCall.class, "state", long.class);
			HOLDS = lookup.findVarHandle(ClientCall.class, "holds", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final PendingCalls table;

	/** The reusable deadline node, when the table's timer is a {@link DeadlineWheel}. */
	private final DeadlineWheel.Node deadline;

	private final XdrDecoder decoder = new XdrDecoder(NOTHING);

	private byte[] replyBytes;

	private ByteBuffer replyView;

	/** The generation, shifted left by one, with bit 0 set once this use has ended. */
	@SuppressWarnings("unused")
	private volatile long state;

	@SuppressWarnings("unused")
	private volatile int holds;

	private int xid;

	private int program;

	private int version;

	private int procedure;

	private String name;

	private Duration timeout;

	private ReplyCallback callback;

	/** Gives back the transport's Write chunk buffers lent to the current reply, or {@code null}. */
	private Runnable chunks;

	/** The deadline's handle when the timer is not a wheel. */
	private volatile CallTimer.Timeout timeoutHandle;

	ClientCall(PendingCalls table, DeadlineWheel wheel) {
		this.table = table;
		this.deadline = (wheel != null) ? wheel.newNode(this) : null;
	}

	/**
	 * Begins a use, before the call is published to the table (under its lock).
	 */
	void start(int xid, int program, int version, int procedure, String name, Duration timeout, ReplyCallback callback) {
		this.xid = xid;
		this.program = program;
		this.version = version;
		this.procedure = procedure;
		this.name = name;
		this.timeout = timeout;
		this.callback = callback;
		this.holds = 2;
		// Written last: whoever reads the new state sees the fields above.
		this.state = ((this.state >>> 1) + 1) << 1;
	}

	/** Schedules this use's deadline; under the table's lock, right after {@link #start}. */
	void scheduleDeadline(CallTimer timer) {
		int stamp = generation(this.state);
		if (this.deadline != null) {
			((DeadlineWheel) timer).schedule(this.deadline, this.timeout.toNanos(), stamp);
		}
		else {
			this.timeoutHandle = timer.schedule(this.timeout, () -> expired(stamp));
		}
	}

	/** @return the xid of the current use */
	int xid() {
		return this.xid;
	}

	/** @return the generation of the current use */
	int generation() {
		return generation(this.state);
	}

	/** @return whether the current use has ended */
	boolean isDone() {
		return (this.state & 1) != 0;
	}

	/** @return the call, as exceptions name it */
	RemoteCall remoteCall() {
		return new RemoteCall(this.table.endpoint(), this.xid, this.program, this.version, this.procedure, this.name);
	}

	// ---- the transport's completion ----------------------------------------------------------

	@Override
	public ByteBuffer replyBuffer(int length) {
		if (length > REUSED_REPLY_BUFFER_LIMIT) {
			return null;
		}
		if (this.replyBytes == null || this.replyBytes.length < length) {
			// Powers of two from 1 KiB, so a connection's calls settle on one size quickly.
			int size = Math.min(REUSED_REPLY_BUFFER_LIMIT, Math.max(1024, Integer.highestOneBit(Math.max(1, length - 1)) << 1));
			this.replyBytes = new byte[size];
			this.replyView = ByteBuffer.wrap(this.replyBytes);
		}
		return this.replyView.clear();
	}

	/**
	 * A reply whose Write chunk data stays in the transport's registered buffers until the
	 * caller releases the {@link ReceivedReply}: a bulk result is then copied once, by the
	 * decoder, straight out of the memory the responder wrote it to.
	 */
	@Override
	public void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding,
			Runnable releaseChunks) {
		this.chunks = releaseChunks;
		replied(version, message, writeChunks, padding);
	}

	@Override
	public void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding) {
		try {
			long current = this.state;
			if ((current & 1) != 0) {
				this.table.countLateReply();
				releaseChunks();
				return;
			}
			int start = message.position();
			XdrDecoder results = this.decoder.reset(message).withOpaquePadding(padding);
			RpcCallException failure = null;
			if (message.remaining() >= 4 && message.getInt(start) != this.xid) {
				// RFC 8166 §4.1.1: the transport header's xid is the RPC message's.
				failure = new MalformedReplyException(remoteCall(), new IllegalArgumentException("the RPC reply carries xid 0x"
						+ Integer.toHexString(message.getInt(start)) + " in a transport message for xid 0x"
						+ Integer.toHexString(this.xid)));
			}
			else if (!RpcMessageCodec.skipSuccessHeader(results)) {
				failure = failureOf(results);
			}
			if (!finish(current)) {
				this.table.countLateReply();
				releaseChunks();
				return;
			}
			this.table.answered();
			ReplyCallback told = this.callback;
			if (failure != null) {
				releaseChunks();
				tellFailure(told, failure);
				releaseHold();
				return;
			}
			ReceivedReply reply = new ReceivedReply(this, results, writeChunks, message, start);
			try {
				told.replied(reply);
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "A reply callback for " + remoteCall() + " failed", ex);
			}
		}
		finally {
			// The transport is done with this call.
			releaseHold();
		}
	}

	/**
	 * Reads a reply the fast path did not take: an error reply becomes its exception, a
	 * success with another verifier leaves the decoder at the results ({@code null}).
	 */
	private RpcCallException failureOf(XdrDecoder results) {
		try {
			RpcReply header = RpcMessageCodec.decodeReply(results);
			return ReplyInterpreter.failureOf(remoteCall(), header);
		}
		catch (OncRpcException | XdrException ex) {
			return new MalformedReplyException(remoteCall(), ex);
		}
	}

	@Override
	public void failed(Throwable failure) {
		try {
			long current = this.state;
			if ((current & 1) != 0) {
				return;
			}
			if (failure instanceof TransportClosedException) {
				// The connection is gone: every call on it fails, and later ones are refused.
				this.table.failAll(failure);
			}
			else if (finish(current)) {
				tellFailure(this.callback, failure);
				releaseHold();
			}
		}
		finally {
			releaseHold();
		}
	}

	// ---- the other ways a call ends ----------------------------------------------------------

	/** The deadline passed. */
	@Override
	public void expired(int stamp) {
		long current = this.state;
		if (generation(current) != stamp || (current & 1) != 0) {
			return;
		}
		if (finish(current)) {
			this.table.countTimeout();
			tellFailure(this.callback, new CallTimeoutException(remoteCall(), this.timeout));
			releaseHold();
		}
	}

	/**
	 * Forgets the call (its caller gave up): a reply arriving later is dropped.
	 * @param generation the use to cancel
	 * @return whether this ended it
	 */
	boolean cancel(int generation) {
		long current = this.state;
		if (generation(current) != generation || (current & 1) != 0 || !finish(current)) {
			return false;
		}
		releaseHold();
		return true;
	}

	/**
	 * The connection was lost.
	 * @param cause why
	 * @return whether this ended the call
	 */
	boolean connectionLost(Throwable cause) {
		long current = this.state;
		if ((current & 1) != 0 || !finish(current)) {
			return false;
		}
		tellFailure(this.callback, new ConnectionLostException(remoteCall(), cause));
		releaseHold();
		return true;
	}

	/** The caller released the {@link ReceivedReply} of a use. */
	void replyReleased() {
		releaseChunks();
		releaseHold();
	}

	/**
	 * Hands the lent Write chunk buffers of the current reply to its caller: releasing the
	 * reply then leaves them lent, and running the returned action gives them back.
	 * @return the action, or {@code null} if the reply had none
	 */
	Runnable takeChunks() {
		Runnable lent = this.chunks;
		this.chunks = null;
		return lent;
	}

	/** Gives lent Write chunk buffers back to the transport, if this reply had any. */
	private void releaseChunks() {
		Runnable lent = this.chunks;
		if (lent != null) {
			this.chunks = null;
			lent.run();
		}
	}

	// ---- internals ---------------------------------------------------------------------------

	/** Ends the use whose state was {@code current}; true for the one thread that did. */
	private boolean finish(long current) {
		if (!STATE.compareAndSet(this, current, current | 1)) {
			return false;
		}
		this.table.remove(this);
		if (this.deadline != null) {
			this.deadline.cancel();
		}
		else {
			CallTimer.Timeout handle = this.timeoutHandle;
			if (handle != null) {
				handle.cancel();
			}
		}
		return true;
	}

	private void tellFailure(ReplyCallback told, Throwable failure) {
		try {
			told.failed(failure);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "A reply callback for " + remoteCall() + " failed", ex);
		}
	}

	private void releaseHold() {
		if ((int) HOLDS.getAndAdd(this, -1) == 1) {
			releaseChunks();
			this.callback = null;
			this.name = null;
			this.timeout = null;
			this.timeoutHandle = null;
			this.decoder.reset(NOTHING);
			this.table.recycle(this);
		}
	}

	private static int generation(long state) {
		return (int) (state >>> 1);
	}

}
