package io.rpcrdma.verbs.siw;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.siw.wire.FpduWriter;
import io.rpcrdma.verbs.soft.SoftwareMemoryRegion;
import io.rpcrdma.verbs.siw.wire.Mpa;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;
import io.rpcrdma.verbs.siw.wire.ReadRequest;
import io.rpcrdma.verbs.siw.wire.TaggedHeader;
import io.rpcrdma.verbs.siw.wire.TerminateError;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;
import io.rpcrdma.verbs.siw.wire.UntaggedHeader;

/**
 * The transmit side of one iWARP connection: turns the send queue, queued Read Responses
 * and a Terminate into FPDUs (RFC 5040 §4, RFC 5041 §5, RFC 5044 §4) sized to the MULPDU,
 * L set on each message's last segment, and writes them to the non-blocking socket.
 * <p>
 * Whoever posts work tries to transmit it at once on its own thread ("inline", no thread
 * hop) if the transmitter is idle and the message is at most {@link #POSTER_LIMIT} long; the
 * receive path likewise sends the Read Responses that the Read Requests it read ask for. The
 * socket never blocks these threads: what the kernel does not take is left to the provider's
 * shared I/O thread that serves this connection ({@link SiwIoThread}), which also sends larger
 * messages and the closing Terminate, and which waits for {@code OP_WRITE}
 * rather than for the socket: a connection has no transmit thread of its own. The receive
 * path therefore never waits for a send, however much both directions carry. Work posted
 * while the receive path executes what it read is the exception: it leaves with that path's
 * own output, in one write ({@link #leftToReceiver()}).
 */
final class RdmapTransmitter {

	/**
	 * Messages up to this size may be transmitted on the posting thread, without a hop to the
	 * I/O thread: a 64 KiB Read Response or RDMA Write is written by the thread that read
	 * the Read Request or posted the Write. The socket never blocks that thread: what the
	 * kernel does not take is left to the I/O thread.
	 */
	static final int POSTER_LIMIT = 256 * 1024;

	/**
	 * While at least this much of a tagged message remains, its segments are written from the
	 * registered memory by a gathering write (CRC off); a smaller rest is copied into the
	 * transmit buffer.
	 */
	static final int GATHER_MINIMUM = 16 * 1024;

	static final long CLOSE_LINGER_NANOS = TimeUnit.SECONDS.toNanos(2);

	/** The most nudges a connection sends: one suffices once the peer's receive path is installed. */
	static final int MAX_NUDGES = 3;

	private static final ReadRequest NUDGE_REQUEST = new ReadRequest(0, 0, 0, 0, 0);

	/**
	 * How many times a posting thread transmits what others posted while it held the lock,
	 * before it leaves the rest to the I/O thread and returns to its caller.
	 */
	private static final int COMBINED_ROUNDS = 4;

	private static final System.Logger logger = System.getLogger(RdmapTransmitter.class.getName());

	private final SiwConnection connection;

	private final SiwQueuePair qp;

	private final SocketChannel channel;

	private final FpduWriter writer;

	private final int mulpdu;

	private final OutboundReadQueue orq;

	private final InboundReadQueue irq;

	private final ReentrantLock txLock = new ReentrantLock();

	private final AtomicBoolean workPending = new AtomicBoolean();

	// Whether the receive path is executing what it read (RECEIVER_BUSY), and whether another
	// thread left it work posted meanwhile (LEFT_TO_RECEIVER).
	private static final int RECEIVER_BUSY = 1;

	private static final int LEFT_TO_RECEIVER = 2;

	private final AtomicInteger receiveBatch = new AtomicInteger();

	// Incremented only by the poster whose compare-and-set marked a batch, so never by two
	// threads at once; the batch state orders the increments.
	private volatile long batchesLeftToReceiver;

	// Borrowed from the provider's transmit buffers while the connection transmits, given back
	// once it has been idle for one look of the I/O thread: null meanwhile. Under txLock.
	private ByteBuffer out;

	private final StreamBuffers buffers;

	// Looks of the I/O thread since the last transmission.
	private volatile int idleLooks;

	private final SgCursor gatherCursor = new SgCursor();

	/** What a Read Response carries from memory whose STag was retired under it: zeros, read-only. */
	private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 16).asReadOnlyBuffer();

	// The segments of gathering writes of Read Responses and RDMA Writes, made at the first.
	private GatheredSegments segments;

	private final SiwIoThread io;

	// Whether a turn of the I/O thread is queued: posters wake it once, not once each.
	private final AtomicBoolean turnQueued = new AtomicBoolean();

	private final Runnable turn = this::ioTurn;

	private volatile Thread receiveThread;

	// Whether any FPDU arrived from the peer: its receive path runs, and no nudge is needed.
	private volatile boolean heard;

	// Under txLock: whether the nudge timer was started, and nudges sent so far.
	private boolean nudgeArmed;

	private volatile int nudgesSent;

	// Set by the I/O thread's nudge timer, taken by pump() under txLock.
	private volatile boolean nudgeDue;

	// How long the peer may stay silent after this end's first message before the first nudge
	// (siw.first-message-nudge-millis), and before the next: doubled each time.
	private final long firstNudgeNanos;

	private long nudgeDelayNanos;

	private final SiwIoThread.Timer nudgeTimer = new SiwIoThread.Timer(this::nudgeTimerFired);

	private boolean deferred;

	private volatile boolean closing;

	private volatile TerminateMessage pendingTerminate;

	private volatile boolean stopped;

	private volatile boolean broken;

	// Closing: when the last bytes and the Terminate must be out, and whether it is framed.
	private long lingerDeadline;

	private boolean terminateFramed;

	// The message being segmented.
	private boolean inMessage;

	private boolean fromSendQueue;

	private RdmapOpcode opcode;

	private int stag;

	private long taggedOffset;

	private int invalidateStag;

	private int msn;

	private int messageOffset;

	private int remaining;

	private ByteBuffer responseMemory;

	/**
	 * The region the Read Response in progress is sent from, and the STag the peer named it
	 * by: its bytes are read only while that STag still names it ({@link #stillOffered}).
	 */
	private SoftwareMemoryRegion responseRegion;

	private int responseSourceStag;

	private int responseOffset;

	// RFC 5041 §5.3: each untagged queue numbers its messages from 1.
	private int sendMsn = 1;

	private int readMsn = 1;

	private int terminateMsn = 1;

	// Under txLock: one past the last Send or RDMA Write whose last segment is framed, and one
	// past the last the socket has taken all of (so completed).
	private long framedBelow;

	private long writtenBelow;

	// Work a posting thread left to the I/O thread: the slow path, so an atomic suffices.
	private final AtomicLong handOffs = new AtomicLong();

	// Written by the I/O thread only, under txLock.
	private volatile long transmitThreadBytes;

	// Gathering writes the socket took only in part; under txLock.
	private volatile long gathersCutShort;

	RdmapTransmitter(SiwConnection connection, SiwQueuePair qp, SocketChannel channel, boolean crc, int mulpdu,
			OutboundReadQueue orq, InboundReadQueue irq, SiwIoThread io,
			StreamBuffers buffers, long firstNudgeNanos) {
		this.connection = connection;
		this.io = io;
		this.buffers = buffers;
		this.qp = qp;
		this.channel = channel;
		this.writer = new FpduWriter(crc);
		this.mulpdu = mulpdu;
		this.orq = orq;
		this.irq = irq;
		this.firstNudgeNanos = firstNudgeNanos;
		this.nudgeDelayNanos = firstNudgeNanos;
		// Zero: never nudge (a passive connection, or siw.first-message-nudge-millis=0).
		this.nudgeArmed = firstNudgeNanos == 0;
	}

	OutboundReadQueue outboundReads() {
		return this.orq;
	}

	InboundReadQueue inboundReads() {
		return this.irq;
	}

	void receiveThread(Thread rx) {
		this.receiveThread = rx;
	}

	/** Joins the I/O thread that serves the connection from now on. */
	void start() {
		this.io.join(this);
	}

	/**
	 * New work: left to the receive path if it is executing what it read, else transmitted
	 * here if possible, else by the I/O thread.
	 */
	void kick() {
		if (this.stopped) {
			return;
		}
		Thread current = Thread.currentThread();
		if (current == this.receiveThread && !this.txLock.isHeldByCurrentThread()) {
			// The receive path transmits once it has executed what it read, so that
			// replies and Read Responses triggered by one read share one write. Not while it
			// transmits already: work posted by a completion handler that its own write
			// produced (a Send completes once the socket took it) comes after its
			// receiverIdle, so it is picked up by the running pump (transmitNow).
			this.deferred = true;
			return;
		}
		if (leftToReceiver()) {
			return;
		}
		transmitNow(current);
	}

	/**
	 * Work posted by another thread while the receive path executes what it read goes out with
	 * what that execution produces, in the receive path's one write when it goes idle: calls
	 * posted by callers that its replies woke share a write instead of one each. Set
	 * {@link #workPending} too, so that a receive path that stalls in a handler leaves the
	 * work to the I/O thread's next look rather than holding it.
	 * @return whether the receive path takes the work
	 */
	private boolean leftToReceiver() {
		int state;
		while (((state = this.receiveBatch.get()) & RECEIVER_BUSY) != 0) {
			if ((state & LEFT_TO_RECEIVER) != 0) {
				this.workPending.set(true);
				return true;
			}
			if (this.receiveBatch.compareAndSet(state, state | LEFT_TO_RECEIVER)) {
				this.batchesLeftToReceiver++;
				this.workPending.set(true);
				return true;
			}
		}
		return false;
	}

	/**
	 * Called by the thread running the receive path when a read brought data: until
	 * {@link #receiverIdle()}, work others post is left to it ({@link #leftToReceiver()}).
	 */
	void receiverBusy() {
		// Never clears LEFT_TO_RECEIVER: work left to an earlier batch still goes at the next
		// receiverIdle. Nobody else sets the word while it is 0.
		if (this.receiveBatch.get() == 0) {
			this.receiveBatch.set(RECEIVER_BUSY);
		}
	}

	/**
	 * Called by the receive path when it has executed everything it read, and before it
	 * waits or leaves: transmits what that work produced and what others left to it.
	 */
	void receiverIdle() {
		boolean left = this.receiveBatch.get() != 0 && (this.receiveBatch.getAndSet(0) & LEFT_TO_RECEIVER) != 0;
		if (this.deferred || left) {
			this.deferred = false;
			transmitNow(Thread.currentThread());
		}
	}

	private void transmitNow(Thread current) {
		if (this.stopped) {
			return;
		}
		if (this.closing) {
			wake();
			return;
		}
		// Whoever holds the lock transmits this too: it looks at workPending after releasing
		// the lock (as the I/O thread does after its turn), so a poster that finds the
		// lock taken leaves its work to the holder instead of waking the I/O thread.
		this.workPending.set(true);
		if (this.txLock.isHeldByCurrentThread()) {
			// Posted from a completion handler that a transmission produced: the running
			// pump (or the I/O thread) picks the work up.
			return;
		}
		for (int round = 0; round < COMBINED_ROUNDS; round++) {
			if (!this.txLock.tryLock()) {
				return;
			}
			boolean done;
			try {
				this.workPending.set(false);
				done = pump(false);
			}
			catch (IOException ex) {
				done = true;
				broken(ex);
			}
			finally {
				this.txLock.unlock();
			}
			if (!done) {
				break;
			}
			if (!this.workPending.get()) {
				return;
			}
			// Posted while this thread transmitted, by threads that left it to this one.
		}
		this.handOffs.incrementAndGet();
		wake();
	}

	/** Has the I/O thread look at this connection's work soon. */
	void wake() {
		this.workPending.set(true);
		if (this.turnQueued.compareAndSet(false, true)) {
			this.io.execute(this.turn);
		}
	}

	/**
	 * The I/O thread's periodic look, as a connection's transmit thread once did: work left to
	 * a receive path that stalls in a handler ({@link #leftToReceiver()}) goes out without
	 * anyone waking it.
	 */
	void look() {
		this.connection.lookAtReceiver();
		if (this.workPending.get() && !this.stopped && !this.txLock.isLocked()) {
			wake();
		}
		else if (this.out != null && this.idleLooks++ >= 1 && this.txLock.tryLock()) {
			try {
				releaseIdleBuffer();
			}
			finally {
				this.txLock.unlock();
			}
		}
	}

	/** Under txLock: gives the transmit buffer back if nothing in it or in progress needs it. */
	private void releaseIdleBuffer() {
		ByteBuffer buffer = this.out;
		if (buffer != null && buffer.position() == 0 && !this.inMessage && !this.closing) {
			this.out = null;
			this.buffers.give(buffer);
		}
	}

	/** @return whether the connection holds a transmit buffer now; for tests */
	boolean holdsTransmitBuffer() {
		return this.out != null;
	}

	/** Under txLock: the transmit buffer, borrowed if the connection has none. */
	private void haveBuffer() {
		this.idleLooks = 0;
		if (this.out == null) {
			this.out = this.buffers.take();
		}
	}

	/**
	 * Ends transmission: after the bytes already framed, the Terminate if given, then the
	 * TCP stream is closed (RFC 5040 §5.3: a Terminate is the last message of a stream).
	 * Never blocks.
	 * @param terminate the Terminate to send, or {@code null} for a plain close
	 */
	void close(TerminateMessage terminate) {
		if (this.closing) {
			return;
		}
		this.pendingTerminate = terminate;
		this.closing = true;
		wake();
	}

	/**
	 * A turn of the I/O thread: transmits what posters left, without ever waiting for the
	 * socket; what it cannot write waits for {@code OP_WRITE}. A poster holding the lock looks
	 * at {@link #workPending} once it lets go, so a turn that finds the lock taken leaves the
	 * work to it.
	 */
	private void ioTurn() {
		this.turnQueued.set(false);
		if (this.stopped) {
			return;
		}
		if (this.closing) {
			closeTurn();
			return;
		}
		if (!this.txLock.tryLock()) {
			return;
		}
		boolean done;
		try {
			this.workPending.set(false);
			done = pump(true);
		}
		catch (IOException ex) {
			done = true;
			broken(ex);
		}
		finally {
			this.txLock.unlock();
		}
		if (this.closing || (done && this.workPending.get())) {
			wake();
		}
		else if (!done) {
			this.io.whenWritable(this.channel, this.turn);
		}
	}

	/**
	 * Closing, on the I/O thread: the framed bytes, then the Terminate if any, then the end of
	 * the stream; what the socket does not take within {@link #CLOSE_LINGER_NANOS} is dropped.
	 */
	private void closeTurn() {
		if (!this.txLock.tryLock()) {
			// The holder sees workPending (set by close) and wakes this thread again.
			return;
		}
		ByteBuffer released = null;
		try {
			if (!lingerFinished()) {
				this.io.whenWritable(this.channel, this.turn);
				this.io.at(this.lingerDeadline, this.turn);
				return;
			}
			released = this.out;
			this.out = null;
			this.stopped = true;
		}
		finally {
			this.txLock.unlock();
		}
		// What the linger left unwritten goes with the stream.
		this.buffers.give(released.clear());
		closeChannel();
		this.io.leave(this);
	}

	/** Under txLock: writes what it can of the last bytes; whether the stream may close now. */
	private boolean lingerFinished() {
		haveBuffer();
		long now = System.nanoTime();
		if (this.lingerDeadline == 0) {
			this.lingerDeadline = now + CLOSE_LINGER_NANOS;
		}
		try {
			boolean drained = drain();
			if (drained && !this.terminateFramed) {
				this.terminateFramed = true;
				TerminateMessage terminate = this.pendingTerminate;
				if (terminate != null) {
					this.writer.writeTerminate(this.out, this.terminateMsn++, terminate);
					drained = drain();
				}
			}
			if (!drained && now - this.lingerDeadline < 0) {
				return false;
			}
			if (drained) {
				this.channel.shutdownOutput();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.log(System.Logger.Level.DEBUG, "Closing the iWARP stream did not complete: " + ex);
		}
		return true;
	}

	/**
	 * Writing failed (the peer reset or closed the connection). The receive path decides
	 * what that means: it still reads what the peer sent before, such as a Terminate
	 * explaining why, and then sees the end of the stream. Until then nothing more is sent.
	 */
	private void broken(IOException ex) {
		if (!this.broken) {
			this.broken = true;
			logger.log(System.Logger.Level.DEBUG, "Writing to the iWARP stream failed: " + ex);
			if (this.out != null) {
				this.out.clear();
			}
			this.connection.wakeReceiver();
		}
	}

	/** @return whether every framed byte is written; never waits */
	private boolean drain() throws IOException {
		while (this.out.position() > 0) {
			if (write() == 0) {
				return false;
			}
		}
		return true;
	}

	private void closeChannel() {
		try {
			this.channel.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		// A receive path waiting for the socket would not notice the close by itself.
		this.connection.wakeReceiver();
		this.orq.clear();
		this.irq.clear();
	}

	/**
	 * Transmits until there is nothing to do, or the socket takes no more.
	 * @param ioThread whether this is the I/O thread, which sends large messages too
	 * @return {@code true} when everything was transmitted, {@code false} when the I/O
	 * thread must continue
	 */
	private boolean pump(boolean ioThread) throws IOException {
		if (this.broken) {
			return true;
		}
		haveBuffer();
		while (!this.closing) {
			if (this.inMessage) {
				if (!continueMessage(ioThread)) {
					return false;
				}
				continue;
			}
			if (!this.irq.isEmpty()) {
				if (!ioThread && this.irq.headLength() > POSTER_LIMIT) {
					flush(false);
					return false;
				}
				startReadResponse();
				continue;
			}
			SendWorkRequest wr = this.qp.nextToTransmit();
			if (wr != null && (wr.opcode() != SendOpcode.RDMA_READ || !this.orq.isFull())) {
				// A Read Request is small on the wire however large the Read it asks for.
				if (!ioThread && wr.opcode() != SendOpcode.RDMA_READ && wr.totalLength() > POSTER_LIMIT) {
					flush(false);
					return false;
				}
				if (!startWorkRequest(wr, ioThread)) {
					return false;
				}
				continue;
			}
			if (this.nudgeDue && !this.orq.isFull()) {
				if (!room(Mpa.fpduLength(ReadRequest.ULPDU_LENGTH), ioThread)) {
					return false;
				}
				this.nudgeDue = false;
				this.orq.add(OutboundReadQueue.NUDGE, 0, 0, 0, List.of());
				this.writer.writeReadRequest(this.out, this.readMsn++, NUDGE_REQUEST);
				this.nudgesSent++;
				continue;
			}
			return flush(ioThread);
		}
		return flush(ioThread) && !this.closing;
	}

	/**
	 * The receive path read an FPDU from the peer: the peer's own receive path runs, so what
	 * this end sent is being processed and no nudge is needed.
	 */
	void heardFromPeer() {
		if (!this.heard) {
			this.heard = true;
		}
	}

	/**
	 * Under txLock, once this end's first message is framed: if the peer has said nothing yet,
	 * the I/O thread nudges it should it stay silent ({@link #nudgeTimerFired}).
	 */
	private void armNudge() {
		this.nudgeArmed = true;
		if (this.io.inThisThread()) {
			startNudgeTimer();
		}
		else {
			this.io.execute(this::startNudgeTimer);
		}
	}

	/** On the I/O thread: the first nudge falls due {@code siw.first-message-nudge-millis} from now. */
	private void startNudgeTimer() {
		this.io.schedule(this.nudgeTimer, System.nanoTime() + this.firstNudgeNanos);
	}

	/**
	 * On the I/O thread: the peer has sent nothing since this end's first message. Linux's siw
	 * (Debian's 6.1 kernel, docs/interop.md) installs its socket's receive upcall only after it
	 * has sent the MPA Reply (siw_accept), so an FPDU that arrives in between stays unread in
	 * the socket until another segment arrives: a Linux server then never sees an initiator's
	 * first message (Linux's rping, waiting for the client's first Send, hangs). A zero-length
	 * RDMA Read Request is such a segment, harmless to any peer: RFC 5040 §4.4 allows a
	 * zero-length Read, the responder answers it with an empty Read Response, and RFC 5040
	 * §5.5 has that Response follow everything sent before it. At most {@link #MAX_NUDGES}, the
	 * delay doubling; none once anything arrived.
	 */
	private void nudgeTimerFired() {
		if (this.heard || this.closing || this.nudgesSent >= MAX_NUDGES) {
			return;
		}
		this.nudgeDue = true;
		wake();
		this.nudgeDelayNanos *= 2;
		this.io.schedule(this.nudgeTimer, System.nanoTime() + this.nudgeDelayNanos);
	}

	/** @return how many zero-length Read Requests nudged a silent peer on this connection */
	int nudgesSent() {
		return this.nudgesSent;
	}

	/**
	 * @return how many times a posting thread left work it could not finish (the socket full,
	 * a message beyond {@link #POSTER_LIMIT}, or others' posts after {@link #COMBINED_ROUNDS}
	 * rounds) to the I/O thread; not counted: work left to whoever held the lock
	 */
	long handOffs() {
		return this.handOffs.get();
	}

	/**
	 * @return how many batches of the receive path took work that other threads posted while
	 * it executed ({@link #leftToReceiver()})
	 */
	long batchesLeftToReceiver() {
		return this.batchesLeftToReceiver;
	}

	/**
	 * @return bytes the I/O thread wrote to the socket: work a posting thread left to it,
	 * or took over while it held the lock
	 */
	long transmitThreadBytes() {
		return this.transmitThreadBytes;
	}

	/** @return the I/O thread serving the connection; for tests */
	SiwIoThread ioThread() {
		return this.io;
	}

	/** @return gathering writes of tagged messages that the socket took only in part */
	long gathersCutShort() {
		return this.gathersCutShort;
	}

	private boolean startWorkRequest(SendWorkRequest wr, boolean ioThread) throws IOException {
		SendOpcode op = wr.opcode();
		List<ScatterGatherEntry> sgList = wr.sgList();
		String problem = this.qp.table().checkLocalAccess(sgList, op == SendOpcode.RDMA_READ, this.qp.pd());
		if (problem != null) {
			this.qp.transmitFailed(CompletionStatus.LOC_PROT_ERR, problem);
			this.connection.failLocally(TerminateError.RDMAP_LOCAL_CATASTROPHIC, "local protection error: " + problem);
			return true;
		}
		long total = wr.totalLength();
		if (total > Integer.MAX_VALUE) {
			String detail = "work request of " + total + " bytes exceeds the maximum message size of 2^31-1";
			this.qp.transmitFailed(CompletionStatus.LOC_LEN_ERR, detail);
			this.connection.failLocally(TerminateError.RDMAP_LOCAL_CATASTROPHIC, detail);
			return true;
		}
		int length = (int) total;
		switch (op) {
			case RDMA_READ -> {
				if (!room(Mpa.fpduLength(ReadRequest.ULPDU_LENGTH), ioThread)) {
					return false;
				}
				// RFC 5040 §4.4: the sink is named by STag and tagged offset; responses are
				// placed into the whole scatter list, in order, by the receiver.
				int sinkStag = 0;
				long sinkOffset = 0;
				if (!sgList.isEmpty()) {
					MemoryRegion first = sgList.get(0).region();
					sinkStag = first.lkey();
					sinkOffset = first.address() + sgList.get(0).offset();
				}
				long seq = this.qp.transmitted();
				this.orq.add(seq, sinkStag, sinkOffset, length, sgList);
				this.writer.writeReadRequest(this.out, this.readMsn++, new ReadRequest(sinkStag, sinkOffset, length,
						wr.remoteAddress().stag(), wr.remoteAddress().address()));
			}
			case RDMA_WRITE -> {
				begin(true, RdmapOpcode.RDMA_WRITE, length);
				this.stag = wr.remoteAddress().stag();
				this.taggedOffset = wr.remoteAddress().address();
				this.gatherCursor.reset(sgList);
			}
			case SEND, SEND_WITH_INVALIDATE -> {
				boolean invalidate = op == SendOpcode.SEND_WITH_INVALIDATE;
				begin(true, invalidate ? RdmapOpcode.SEND_WITH_INVALIDATE : RdmapOpcode.SEND, length);
				this.invalidateStag = invalidate ? wr.invalidateStag() : 0;
				this.msn = this.sendMsn++;
				this.messageOffset = 0;
				this.gatherCursor.reset(sgList);
			}
		}
		return true;
	}

	private void startReadResponse() {
		begin(false, RdmapOpcode.RDMA_READ_RESPONSE, this.irq.headLength());
		this.responseRegion = this.irq.headRegion();
		this.responseSourceStag = this.irq.headSourceStag();
		this.responseMemory = (this.responseRegion != null) ? this.responseRegion.memory() : null;
		this.responseOffset = this.irq.headOffset();
		this.stag = this.irq.headSinkStag();
		this.taggedOffset = this.irq.headSinkOffset();
		this.irq.removeHead();
	}

	private void begin(boolean sendQueue, RdmapOpcode op, int length) {
		this.inMessage = true;
		this.fromSendQueue = sendQueue;
		this.opcode = op;
		this.remaining = length;
	}

	/**
	 * Sends the segments of a tagged message (a Read Response, or an RDMA Write from the send
	 * queue) straight from the registered memory with a gathering write (header, payload, pad
	 * and zero CRC per FPDU): no copy into the transmit buffer. Each segment is one FPDU of at
	 * most MULPDU bytes (RFC 5044 §4) and does not cross a scatter/gather entry. CRC off only:
	 * with CRC the payload passes through the checksum anyway.
	 * <p>
	 * Whoever transmits writes as much as the socket takes at once and copies the rest of the
	 * segments it framed into the transmit buffer, whose room for four maximum FPDUs holds
	 * them; the I/O thread writes them out when the socket takes bytes again and goes on with
	 * the message.
	 * @param ioThread whether this is the I/O thread
	 * @return {@code false} when the I/O thread must continue
	 */
	private boolean continueTaggedWithoutCopy(boolean ioThread) throws IOException {
		if (!flush(ioThread)) {
			return false;
		}
		GatheredSegments segments = this.segments;
		if (segments == null) {
			segments = new GatheredSegments();
			this.segments = segments;
		}
		segments.clear();
		SoftwareMemoryRegion guard = this.fromSendQueue ? null : this.responseRegion;
		int guardStag = this.responseSourceStag;
		boolean last = false;
		while (!last && !segments.full()) {
			int max = Math.min(this.mulpdu - TaggedHeader.LENGTH, this.remaining);
			int n;
			ByteBuffer source;
			int sourceOffset;
			long sourcePosition;
			if (this.fromSendQueue) {
				sourcePosition = this.gatherCursor.position();
				n = this.gatherCursor.piece(max);
				source = this.gatherCursor.pieceMemory();
				sourceOffset = this.gatherCursor.pieceOffset();
			}
			else {
				n = max;
				source = this.responseMemory;
				sourceOffset = this.responseOffset;
				sourcePosition = sourceOffset;
			}
			last = n == this.remaining;
			ByteBuffer head = segments.next(this.taggedOffset, this.remaining, sourcePosition);
			this.writer.writeTaggedHeader(head, last, this.opcode, this.stag, this.taggedOffset, n);
			head.flip();
			segments.add(source, sourceOffset, n, FpduWriter.trailerLength(n));
			this.taggedOffset += n;
			this.remaining -= n;
			if (this.fromSendQueue) {
				this.gatherCursor.advance(n);
			}
			else {
				this.responseOffset += n;
			}
		}
		ByteBuffer[] buffers = segments.buffers();
		int count = 3 * segments.count();
		long total = segments.bytes();
		long written = 0;
		while (written < total) {
			long w;
			if (guard == null) {
				w = this.channel.write(buffers, 0, count);
			}
			else {
				// The peer's Read of memory it was offered: its bytes leave only while its STag
				// still names the memory. Once the owner released it (a new STag, the memory
				// perhaps another call's already), the rest of the Response is zeros, as the
				// scrubbed memory would be (RFC 8166 §8: nothing of another call reaches a peer).
				synchronized (guard) {
					if (!stillOffered(guard, guardStag)) {
						segments.zeroPayloads(ZEROS);
						guard = null;
					}
					w = this.channel.write(buffers, 0, count);
				}
			}
			if (w == 0) {
				keepUnwritten(segments, written, last);
				return false;
			}
			written += w;
			if (ioThread) {
				this.transmitThreadBytes += w;
			}
		}
		if (last) {
			endMessage();
			// The memory may be deregistered and freed once the message is done: keep no view.
			segments.releaseViews();
		}
		return true;
	}

	/**
	 * The socket took {@code written} bytes of a gathering write and no more: the rest of a
	 * segment it took in part goes to the empty transmit buffer (at most one FPDU, which its
	 * room for four holds), for the I/O thread to write; the segments it took nothing of are
	 * framed again when it takes bytes again, from where the message stood before them.
	 */
	private void keepUnwritten(GatheredSegments segments, long written, boolean last) {
		this.gathersCutShort++;
		int next = segments.keepPartlyWritten(written, this.out);
		if (next < segments.count()) {
			this.taggedOffset = segments.taggedOffset(next);
			this.remaining = segments.remaining(next);
			if (this.fromSendQueue) {
				this.gatherCursor.seek(segments.sourcePosition(next));
			}
			else {
				this.responseOffset = (int) segments.sourcePosition(next);
			}
		}
		else if (last) {
			endMessage();
		}
		if (!this.inMessage) {
			segments.releaseViews();
		}
	}

	private boolean stillOffered(SoftwareMemoryRegion region, int stag) {
		return region.stillOffered(stag, this.qp.pd(), this.qp);
	}

	/** The current message's last segment is framed: its send-queue bookkeeping. */
	private void endMessage() {
		this.inMessage = false;
		this.responseMemory = null;
		this.responseRegion = null;
		if (this.fromSendQueue) {
			this.gatherCursor.clear();
			this.framedBelow = this.qp.transmitted() + 1;
			if (!this.nudgeArmed && !this.heard) {
				armNudge();
			}
		}
	}

	/**
	 * Writes the current message's next segments, each one FPDU of at most MULPDU bytes
	 * (RFC 5044 §4); segments do not cross scatter/gather entries.
	 */
	private boolean continueMessage(boolean ioThread) throws IOException {
		boolean tagged = this.opcode.tagged();
		if (tagged && !this.writer.crc() && this.remaining >= GATHER_MINIMUM) {
			return continueTaggedWithoutCopy(ioThread);
		}
		int header = tagged ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH;
		int max = Math.min(this.mulpdu - header, this.remaining);
		ByteBuffer source;
		int sourceOffset;
		int n;
		if (this.fromSendQueue) {
			n = this.gatherCursor.piece(max);
			source = (n > 0) ? this.gatherCursor.pieceMemory() : null;
			sourceOffset = (n > 0) ? this.gatherCursor.pieceOffset() : 0;
		}
		else {
			n = max;
			source = this.responseMemory;
			sourceOffset = this.responseOffset;
		}
		if (!room(Mpa.fpduLength(header + n), ioThread)) {
			return false;
		}
		boolean last = n == this.remaining;
		SoftwareMemoryRegion guard = this.fromSendQueue ? null : this.responseRegion;
		if (guard != null) {
			// As in continueTaggedWithoutCopy: the bytes are copied only while the STag still
			// names the memory.
			synchronized (guard) {
				if (!stillOffered(guard, this.responseSourceStag)) {
					source = ZEROS;
					sourceOffset = 0;
				}
				this.writer.writeTagged(this.out, last, this.opcode, this.stag, this.taggedOffset, source, sourceOffset,
						n);
			}
			this.taggedOffset += n;
		}
		else if (tagged) {
			this.writer.writeTagged(this.out, last, this.opcode, this.stag, this.taggedOffset, source, sourceOffset, n);
			this.taggedOffset += n;
		}
		else {
			this.writer.writeUntagged(this.out, last, this.opcode, this.invalidateStag, 0, this.msn,
					this.messageOffset, source, sourceOffset, n);
			this.messageOffset += n;
		}
		this.remaining -= n;
		if (this.fromSendQueue) {
			this.gatherCursor.advance(n);
		}
		else {
			this.responseOffset += n;
		}
		if (last) {
			endMessage();
		}
		return true;
	}

	/** Makes room for an FPDU, writing out what is framed; false if the socket is full. */
	private boolean room(int needed, boolean ioThread) throws IOException {
		if (this.out.remaining() >= needed) {
			return true;
		}
		return flush(ioThread);
	}

	/**
	 * Writes the framed bytes.
	 * @return {@code true} if all were written
	 */
	private boolean flush(boolean ioThread) throws IOException {
		while (this.out.position() > 0) {
			int n = write();
			if (ioThread) {
				this.transmitThreadBytes += n;
			}
			if (n == 0) {
				// The socket is full: the I/O thread goes on when it takes bytes again.
				return false;
			}
		}
		completeWritten();
		return true;
	}

	/**
	 * Under txLock, with the transmit buffer empty: the socket has taken every framed Send and
	 * RDMA Write, which therefore complete, as Linux's siw completes them once pushed to the
	 * socket (siw_qp_sq_proc). iWARP has no acknowledgement (RFC 5040 §5.5 orders only Read
	 * Responses after earlier messages): a message the peer cannot take fails by the peer's
	 * Terminate, which moves the queue pair to error and flushes what is still outstanding.
	 * The memory of a message is read only while it is framed (copied into the transmit
	 * buffer, or written by a gathering write whose rest is copied there), so the completion
	 * may hand it back at once.
	 */
	private void completeWritten() {
		if (this.framedBelow > this.writtenBelow) {
			this.writtenBelow = this.framedBelow;
			this.qp.acknowledge(this.framedBelow);
		}
	}

	/** @return how many bytes were written */
	private int write() throws IOException {
		this.out.flip();
		int n;
		try {
			n = this.channel.write(this.out);
		}
		finally {
			this.out.compact();
		}
		return n;
	}

}
