package io.rpcrdma.verbs.siw;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.RemoteAccessException;
import io.rpcrdma.verbs.RnrPolicy;
import io.rpcrdma.verbs.siw.wire.Fpdu;
import io.rpcrdma.verbs.siw.wire.FpduParser;
import io.rpcrdma.verbs.siw.wire.FpduStalledException;
import io.rpcrdma.verbs.siw.wire.FpduTruncatedException;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;
import io.rpcrdma.verbs.siw.wire.DdpReceiveValidator;
import io.rpcrdma.verbs.siw.wire.IwarpWireException;
import io.rpcrdma.verbs.siw.wire.Mpa;
import io.rpcrdma.verbs.siw.wire.ReadRequest;
import io.rpcrdma.verbs.siw.wire.TaggedHeader;
import io.rpcrdma.verbs.siw.wire.TerminateError;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;
import io.rpcrdma.verbs.siw.wire.UntaggedHeader;
import io.rpcrdma.verbs.soft.SoftwareMemoryRegion;

/**
 * The receive side of one iWARP connection: reads the TCP stream, finds FPDUs
 * ({@link FpduParser}), applies DDP's stream rules ({@link DdpReceiveValidator}) and
 * executes each RDMAP message (RFC 5040 §5): places Sends into posted receives, RDMA Writes
 * and Read Responses into registered memory after every check of
 * {@link io.rpcrdma.verbs.soft.MemoryRegionTable}, and queues checked Read Requests for the
 * transmitter without waiting for it. Any violation ends the stream with a Terminate naming
 * the layer, error type and code, quoting the offending DDP header (RFC 5040 §4.8); no byte
 * is placed outside a region.
 * <p>
 * A Send that finds no posted receive waits for one, for the queue pair's RNR policy's
 * window but at least {@link SiwSettings#rnrGrace()}; meanwhile this connection's receive
 * stream pauses (later messages must not overtake it), then the Send is refused with DDP's
 * "no buffer available" Terminate (RFC 5041 §7, untagged error 0x02). Nothing waits for it:
 * the Send's FPDU stays in the receive buffer and is executed again when a receive is posted.
 * <p>
 * No thread is the connection's own. The receive path runs in turns on the provider's I/O
 * thread that serves the connection ({@link SiwIoThread}), whenever the socket is readable;
 * a turn never waits, so all its progress (the partial FPDU in the receive buffer, a large
 * segment half placed straight into memory, a Send waiting for a receive, the FPDU deadline)
 * is kept here between turns, and the FPDU deadline is a timer of the I/O thread. A caller
 * waiting for its reply may run the same path on its own thread instead ({@link ReceiveRole}).
 * The receive buffer is borrowed from the provider's {@link StreamBuffers} while the
 * connection receives and given back when it is idle.
 */
final class RdmapReceiver {

	// Selecting with an action instead of the selected-key set allocates nothing per wake-up.
	private static final java.util.function.Consumer<SelectionKey> IGNORE = (key) -> {
	};

	/**
	 * The most bytes one receive turn of the I/O thread reads before it lets the other
	 * connections on that thread have theirs: a peer streaming a large message, or a flood of
	 * small ones, holds the thread for about this much and then queues behind the others.
	 */
	static final int TURN_BUDGET = 256 * 1024;

	/** What a run of the receive path ended with. */
	enum Pause {

		/** The stream ended. */
		ENDED,

		/** A caller's condition held. */
		STOPPED,

		/** The socket is empty: wait until it is readable (or the FPDU deadline). */
		READABLE,

		/** A Send waits for a posted receive (or the receiver-not-ready window). */
		RECEIVE,

		/** The turn's byte budget is spent: queue the next turn behind the others. */
		BUDGET

	}

	private final SiwConnection connection;

	private final SiwQueuePair qp;

	private final SocketChannel channel;

	// The selector callers wait in while they lead: opened by the first caller that leads,
	// since connections nobody calls on (most, on a server) never need one.
	private Selector callerSelector;

	// Borrowed from the provider's stream buffers while the connection receives, given back
	// once it has been idle for one look of the I/O thread: null meanwhile.
	private ByteBuffer in;

	private final StreamBuffers buffers;

	// Looks of the I/O thread since the last receive turn.
	private int idleLooks;

	private final FpduParser parser;

	private final DdpReceiveValidator validator = new DdpReceiveValidator();

	private final Fpdu fpdu = new Fpdu();

	private final SiwSettings settings;

	private final SgCursor receiveCursor = new SgCursor();

	private final SgCursor responseCursor = new SgCursor();

	private final OutboundReadQueue orq;

	private final InboundReadQueue irq;

	private final RdmapTransmitter transmitter;

	private ReceiveWorkRequest receiving;

	// Segments at least this large are placed straight from the socket when CRC is off.
	private static final int DIRECT_MINIMUM = 16 * 1024;

	/** The MPA length field and the tagged DDP/RDMAP header in front of a segment's payload. */
	private static final int DIRECT_HEADER = Mpa.LENGTH_FIELD + TaggedHeader.LENGTH;

	private final boolean directPlacement;

	private int pendingSkip;

	// The segment being placed straight from the socket, across turns: its kind, payload
	// length, bytes placed, the RDMA Write's target, and what follows its payload.
	private static final int DIRECT_NONE = 0;

	private static final int DIRECT_WRITE = 1;

	private static final int DIRECT_RESPONSE = 2;

	private int direct = DIRECT_NONE;

	private int directLength;

	private int directPlaced;

	private SoftwareMemoryRegion directRegion;

	private int directStag;

	private int directTarget;

	private boolean directLast;

	private int directSkip;

	private ByteBuffer directMemory;

	private ByteBuffer directView;

	private boolean responding;

	// Whether the last read left room in the buffer: the socket was empty then.
	private boolean drained;

	// How long the peer may leave an FPDU, or a DDP message, unfinished.
	private final FpduDeadline deadline;

	// When the deadline falls, for the I/O thread's timer.
	private long deadlineAt;

	// A Send waiting for a posted receive: its FPDU stays in the buffer, already validated,
	// and is executed again once a receive is posted; since when it waits.
	private boolean awaitingReceive;

	private boolean validated;

	private long awaitingSince;

	// Bytes read in the current turn of the I/O thread.
	private int turnBytes;

	private final ReceiveRole role;

	private final SiwIoThread io;

	private final Runnable turn = this::ioTurn;

	// The I/O thread's timers for the FPDU deadline and the receiver-not-ready window: a turn
	// that fires early finds the time not up and sets its timer again.
	private final SiwIoThread.Timer deadlineTimer = new SiwIoThread.Timer(this::wake);

	private final SiwIoThread.Timer receiveWindowTimer = new SiwIoThread.Timer(this::wake);

	private final SiwIoThread.Timer callerTimer = new SiwIoThread.Timer(this::wake);

	private final AtomicBoolean turnQueued = new AtomicBoolean();

	private final AtomicBoolean armQueued = new AtomicBoolean();

	private final Runnable armTask = this::armNow;

	// The I/O thread's looks during one caller's lead (lookAfterLeader): which lead, and how
	// long until the next look.
	private long timedLead = -1;

	private long leaderLookDelay = ReceiveRole.CALLER_NANOS;

	/** The longest delay between the I/O thread's looks during one caller's lead: 2, 4, 8 ms. */
	static final long MAX_LEADER_LOOK_DELAY = 4 * ReceiveRole.CALLER_NANOS;

	// Used by leading callers only.
	private final CallerSpin callerSpin;

	private static final BooleanSupplier NEVER = () -> false;

	RdmapReceiver(SiwConnection connection, SiwQueuePair qp, SocketChannel channel, ByteBuffer in, boolean crc,
			SiwSettings settings, SiwIoThread io, StreamBuffers buffers) {
		this.connection = connection;
		this.qp = qp;
		this.channel = channel;
		this.in = in;
		this.buffers = buffers;
		this.io = io;
		this.parser = new FpduParser(FpduParser.Config.of(crc));
		this.directPlacement = !crc;
		this.settings = settings;
		this.deadline = new FpduDeadline(settings.fpduTimeout());
		this.transmitter = connection.transmitter();
		this.orq = this.transmitter.outboundReads();
		this.irq = this.transmitter.inboundReads();
		this.role = connection.receiveRole();
		this.callerSpin = new CallerSpin(settings.callerSpin());
	}

	/** @return when leading callers poll the socket before they wait */
	CallerSpin callerSpin() {
		return this.callerSpin;
	}

	/** @return whether the connection holds a receive buffer now; for tests */
	boolean holdsReceiveBuffer() {
		return this.in != null;
	}

	// ---- the I/O thread's turns -----------------------------------------------------------

	/**
	 * Has the I/O thread wait for the socket again, without a turn now: a caller left the
	 * socket drained, so only bytes that come later need reading, and the next caller may
	 * take the role meanwhile. From any thread, never blocks.
	 */
	void arm() {
		if (this.armQueued.compareAndSet(false, true)) {
			this.io.execute(this.armTask);
		}
	}

	private void armNow() {
		this.armQueued.set(false);
		if (this.connection.isEstablished()) {
			this.io.whenReadable(this.channel, this.turn);
		}
		else {
			wake();
		}
	}

	/** Has the I/O thread run a receive turn soon; from any thread, never blocks. */
	void wake() {
		if (this.turnQueued.compareAndSet(false, true)) {
			this.io.execute(this.turn);
		}
	}

	/**
	 * Has the I/O thread take a turn within the caller window, which a turn just after a
	 * caller left waits out anyway ({@link ReceiveRole#leaveToCaller}): it is woken only if
	 * its select would not end by then, so a caller leaving a long lead costs no wake-up
	 * under load.
	 */
	void wakeSoon() {
		if (this.turnQueued.compareAndSet(false, true)) {
			this.io.executeSoon(this.turn, ReceiveRole.CALLER_NANOS);
		}
	}

	/**
	 * A receive turn of the I/O thread: reads and executes what the socket holds, without
	 * ever waiting for it, for at most {@link #TURN_BUDGET} bytes; then waits for the socket
	 * in the I/O thread's selector (with a timer for the FPDU deadline when inside a frame),
	 * for a posted receive, or behind the other connections' turns. Within the caller window
	 * ({@link ReceiveRole#leaveToCaller}), or while a caller leads, it looks again by its timer
	 * ({@link #lookAfterLeader}) instead; a long lead has the leaving caller ask for the turn.
	 */
	private void ioTurn() {
		this.turnQueued.set(false);
		Thread self = Thread.currentThread();
		long now = System.nanoTime();
		long leave = this.connection.isEstablished() ? this.role.leaveToCaller(now) : 0;
		if (leave > 0) {
			// A caller about to lead reads what came; if none comes, this turn does, by the
			// timer. Meanwhile the I/O thread does not wait for the socket: callers leading in
			// turn cost it a timer every 2 ms, not a wake-up per reply.
			this.io.schedule(this.callerTimer, now + leave);
			return;
		}
		if (this.role.ledByCaller(self) && this.connection.isEstablished() && lookAfterLeader(now)) {
			return;
		}
		if (!this.role.takeForTurn(self)) {
			return;
		}
		Pause pause = Pause.ENDED;
		try {
			this.idleLooks = 0;
			this.turnBytes = 0;
			// Woken by the socket, a timer or a hand-over: read before judging it empty.
			this.drained = false;
			if (this.connection.isEstablished()) {
				this.transmitter.receiveThread(self);
				try {
					pause = drive(NEVER, false);
				}
				finally {
					this.transmitter.receiveThread(null);
				}
			}
			if (pause == Pause.ENDED) {
				this.role.close();
				giveBufferBack();
			}
		}
		finally {
			this.role.releaseTurn();
		}
		if (pause == Pause.ENDED) {
			closeCallerSelector();
		}
		switch (pause) {
			case READABLE -> {
				this.io.whenReadable(this.channel, this.turn);
				if (this.deadlineAt != 0) {
					this.io.schedule(this.deadlineTimer, this.deadlineAt);
				}
			}
			case RECEIVE -> {
				long window = receiverNotReadyWindow();
				if (window != Long.MAX_VALUE) {
					this.io.schedule(this.receiveWindowTimer, this.awaitingSince + window);
				}
			}
			case BUDGET -> wake();
			default -> {
				// ENDED: the connection has been told; STOPPED is for callers only.
			}
		}
	}

	/**
	 * On the I/O thread, a caller leading the path: it reads all that comes until its reply, in
	 * its own selector, and what comes after is read by the next caller, or by a turn of this
	 * thread once callers have stopped leading. This thread looks again by its timer, 2, 4 and 8
	 * ms on in one caller's lead, and leaves no mark meanwhile: a mark has the leader wake this
	 * thread when it leaves, a hand-over between threads per call, which cost 256 connections
	 * whose callers wait longer than the caller window a third of their calls per second
	 * (issue #34). A longer lead (a slow server) gets the mark, so that its timers stop, and
	 * its leaving caller asks for a turn ({@link #wakeSoon}), which waits out the caller window.
	 * @return whether this thread looks again by its timer, else it marks itself wanted
	 */
	private boolean lookAfterLeader(long now) {
		long lead = this.role.leads();
		if (lead != this.timedLead) {
			this.timedLead = lead;
			this.leaderLookDelay = ReceiveRole.CALLER_NANOS;
		}
		if (this.leaderLookDelay > MAX_LEADER_LOOK_DELAY) {
			return false;
		}
		this.io.schedule(this.callerTimer, now + this.leaderLookDelay);
		this.leaderLookDelay *= 2;
		return true;
	}

	/** A receive was posted: a Send waiting for one goes on. */
	void receivePosted() {
		if (this.awaitingReceive) {
			wake();
		}
	}

	/**
	 * The I/O thread's periodic look: a connection idle since the last look gives its receive
	 * buffer back, unless part of an FPDU waits in it.
	 */
	void look() {
		if (this.in == null || this.idleLooks++ < 1) {
			return;
		}
		if (this.role.tryTake(Thread.currentThread())) {
			try {
				if (this.in != null && this.in.position() == 0 && this.direct == DIRECT_NONE && this.pendingSkip == 0) {
					giveBufferBack();
				}
			}
			finally {
				this.role.releaseTurn();
			}
			if (this.role.hasFollowers()) {
				// A caller found the role held by this look and follows: a turn reads for it.
				wake();
			}
		}
	}

	/** Holding the role: the receive buffer goes back to the provider's free ones. */
	private void giveBufferBack() {
		ByteBuffer buffer = this.in;
		if (buffer != null) {
			this.in = null;
			this.buffers.give(buffer);
		}
	}

	/** Holding the role: the receive buffer, borrowed if the connection has none. */
	private ByteBuffer buffer() {
		ByteBuffer buffer = this.in;
		if (buffer == null) {
			buffer = this.buffers.take();
			this.in = buffer;
		}
		return buffer;
	}

	/** The stream ended: the selector callers waited in closes once none leads. */
	void closeCallerSelector() {
		Selector s = this.callerSelector;
		if (s != null && this.role.holder() == null) {
			try {
				s.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
	}

	/** Wakes a caller waiting for data in the receive path. */
	void wakeLeader() {
		Selector s = this.callerSelector;
		if (s != null) {
			s.wakeup();
		}
	}

	// ---- callers ---------------------------------------------------------------------------

	/**
	 * Runs the receive path for a caller waiting for its reply, which holds the role.
	 * @param done whether the caller's outcome arrived
	 * @return what it ended with: {@link Pause#STOPPED} when {@code done} held, or the caller
	 * was interrupted; otherwise the I/O thread must go on ({@link Pause#RECEIVE},
	 * {@link Pause#ENDED})
	 */
	Pause driveForCaller(BooleanSupplier done) {
		Thread caller = Thread.currentThread();
		if (this.callerSelector == null) {
			try {
				Selector s = Selector.open();
				this.channel.register(s, SelectionKey.OP_READ);
				this.callerSelector = s;
			}
			catch (IOException ex) {
				// Closed meanwhile, or no selector to be had: the I/O thread reads instead.
				return Pause.ENDED;
			}
		}
		this.transmitter.receiveThread(caller);
		try {
			return drive(done, true);
		}
		finally {
			this.transmitter.receiveThread(null);
		}
	}

	/**
	 * @return whether the path needs the I/O thread although no bytes may come: part of an
	 * FPDU, or of a DDP message, waits for its deadline, or a Send for a receive
	 */
	boolean needsReader() {
		return this.awaitingReceive || this.direct != DIRECT_NONE || this.pendingSkip > 0
				|| (this.in != null && this.in.position() > 0) || this.validator.inMessage();
	}

	// ---- the receive path ------------------------------------------------------------------

	/**
	 * Reads the stream and executes every message, on the thread holding the role, until the
	 * socket is empty (the I/O thread), or {@code stop} holds at a point where everything read
	 * has been executed and the socket was empty (a caller, which waits in its selector
	 * meanwhile), or the stream ends. Protocol and transport errors end the connection here.
	 * @param stop when a caller stops
	 * @param caller whether a caller runs it: it waits for the socket, polls before it waits
	 * ({@link CallerSpin}) and stops when interrupted; the I/O thread never waits, and stops
	 * after {@link #TURN_BUDGET} bytes
	 * @return why it stopped
	 */
	private Pause drive(BooleanSupplier stop, boolean caller) {
		try {
			while (this.connection.isEstablished()) {
				if (this.direct != DIRECT_NONE) {
					int placed = continueDirect(caller);
					if (placed < 0) {
						return Pause.ENDED;
					}
					if (placed == 2) {
						return Pause.BUDGET;
					}
					if (placed == 0) {
						this.drained = true;
						Pause pause = awaitBytes(stop, caller, 1000);
						if (pause != null) {
							return pause;
						}
						continue;
					}
				}
				ByteBuffer in = buffer();
				in.flip();
				try {
					if (this.pendingSkip > 0) {
						int skip = Math.min(this.pendingSkip, in.remaining());
						in.position(in.position() + skip);
						this.pendingSkip -= skip;
						if (this.pendingSkip == 0) {
							// The FPDU placed straight from the socket is complete.
							this.deadline.stop();
						}
					}
					while (this.parser.next(in, this.fpdu)) {
						this.deadline.stop();
						if (!this.validated) {
							this.validator.validate(this.fpdu);
						}
						this.validated = false;
						if (!dispatch()) {
							return Pause.ENDED;
						}
						if (this.awaitingReceive) {
							// The Send's FPDU stays in the buffer for when a receive is posted.
							in.position(this.fpdu.start());
							this.validated = true;
							return Pause.RECEIVE;
						}
					}
					if (this.directPlacement && this.pendingSkip == 0) {
						int started = placeResponseFromSocket();
						if (started == 0) {
							started = placeWriteFromSocket();
						}
						if (started < 0) {
							return Pause.ENDED;
						}
						if (started > 0) {
							continue;
						}
					}
				}
				finally {
					in.compact();
				}
				this.transmitter.receiverIdle();
				if (!this.connection.isEstablished()) {
					return Pause.ENDED;
				}
				int n = 0;
				if (this.drained) {
					// The last read left room, so the socket was empty: wait before reading.
					Pause pause = awaitBytes(stop, caller, 1000);
					if (pause != null) {
						return pause;
					}
					long poll = caller ? this.callerSpin.pollNanos() : 0;
					if (poll > 0) {
						n = poll(poll);
					}
				}
				else if (!caller && this.turnBytes >= TURN_BUDGET) {
					return Pause.BUDGET;
				}
				int room = in.remaining();
				if (n == 0) {
					n = this.channel.read(in);
				}
				this.drained = n < room;
				if (n > 0) {
					this.turnBytes += n;
					this.transmitter.receiverBusy();
				}
				if (n < 0) {
					in.flip();
					try {
						this.parser.endOfStream(in);
					}
					finally {
						in.compact();
					}
					this.connection.peerClosed();
					return Pause.ENDED;
				}
			}
			return Pause.ENDED;
		}
		catch (IwarpWireException ex) {
			TerminateError error = ex.terminateError().orElse(TerminateError.RDMAP_UNSPECIFIED_OPERATION_ERROR);
			this.connection.failWithTerminate(TerminateMessage.of(error),
					"the peer broke the iWARP protocol: " + ex.getMessage());
			return Pause.ENDED;
		}
		catch (IOException | ClosedSelectorException ex) {
			this.connection.transportFailed(ex);
			return Pause.ENDED;
		}
		finally {
			// Work left to this path while it executed goes out, whichever way it leaves.
			this.transmitter.receiverIdle();
		}
	}

	/**
	 * The socket was empty: holds the peer to the FPDU deadline if a frame or message is
	 * unfinished (judged only now, so bytes already here are never refused), then a caller
	 * waits in its selector, for at most {@code selectMillis} or the deadline; the I/O thread
	 * returns instead and waits for the socket with its other connections.
	 * @return why the path stops, or {@code null} to read on
	 */
	private Pause awaitBytes(BooleanSupplier stop, boolean caller, long selectMillis) throws IOException {
		long waitMillis = selectMillis;
		this.deadlineAt = 0;
		boolean inFrame = this.direct != DIRECT_NONE || this.pendingSkip > 0 || (this.in != null && this.in.position() > 0);
		if (inFrame || this.validator.inMessage()) {
			// Part of an FPDU is here, or a message has begun and not ended: the peer owes
			// the rest within the FPDU timeout.
			long now = System.nanoTime();
			long left = this.deadline.remaining(now);
			if (left <= 0) {
				if (this.direct != DIRECT_NONE) {
					throw new FpduStalledException(this.directPlaced, this.directLength, this.settings.fpduTimeout(),
							SiwSettings.FPDU_TIMEOUT_MILLIS);
				}
				stalled(!inFrame);
				return Pause.ENDED;
			}
			this.deadlineAt = now + left;
			waitMillis = FpduDeadline.waitMillis(left, selectMillis);
		}
		else {
			this.deadline.stop();
		}
		if (!caller) {
			if (inFrame || this.validator.inMessage() || !this.orq.isEmpty()) {
				// The rest of a frame or message, or the Response to a Read Request, is on its
				// way: the I/O thread polls a little before it sleeps.
				this.io.bytesOwed();
			}
			return Pause.READABLE;
		}
		if (stop.getAsBoolean() || Thread.currentThread().isInterrupted()) {
			return Pause.STOPPED;
		}
		if (this.callerSpin.pollNanos() <= 0 || this.direct != DIRECT_NONE) {
			this.callerSelector.select(IGNORE, waitMillis);
		}
		return null;
	}

	/**
	 * Reads the socket without waiting, over and over, for up to the given time: the caller's
	 * reply is caught without a wake-up if it comes by then ({@link CallerSpin}). Between reads
	 * the thread yields, so that a thread waiting for this CPU (the peer's, on a busy host)
	 * runs first; and it stops polling once another caller waits on this connection, since
	 * concurrent callers need the CPU more than one of them needs a wake-up saved.
	 * @param nanos how long to poll
	 * @return what the last read returned: bytes read, -1 at the end of the stream, 0 if
	 * nothing came (having then waited in the selector)
	 */
	private int poll(long nanos) throws IOException {
		if (CallerSpin.startPolling()) {
			try {
				long deadline = System.nanoTime() + nanos;
				do {
					int n = this.channel.read(this.in);
					if (n != 0) {
						this.callerSpin.hit();
						return n;
					}
					if (this.role.hasFollowers()) {
						break;
					}
					Thread.yield();
				}
				while (System.nanoTime() - deadline < 0);
			}
			finally {
				CallerSpin.stopPolling();
			}
			if (!this.role.hasFollowers()) {
				this.callerSpin.missed();
			}
		}
		this.callerSelector.select(IGNORE, (this.deadlineAt != 0)
				? FpduDeadline.waitMillis(this.deadlineAt - System.nanoTime(), 1000) : 1000);
		return 0;
	}

	/** @return {@code false} when the stream ended */
	private boolean dispatch() {
		this.transmitter.heardFromPeer();
		return switch (this.fpdu.opcode()) {
			case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE -> placeSend();
			case RDMA_WRITE -> placeWrite();
			case RDMA_READ_REQUEST -> queueReadResponse();
			case RDMA_READ_RESPONSE -> placeReadResponse();
			case TERMINATE -> {
				this.connection.terminated(this.fpdu.terminate());
				yield false;
			}
		};
	}

	// RFC 5040 §5.1, §6.1: a Send goes into the next posted receive, in order.
	private boolean placeSend() {
		Fpdu f = this.fpdu;
		if (this.receiving == null) {
			ReceiveWorkRequest wr = this.qp.takeReceive(0);
			if (wr == null) {
				if (!this.connection.isEstablished() || this.qp.state() != QueuePairState.RTS) {
					return false;
				}
				long now = System.nanoTime();
				if (!this.awaitingReceive) {
					this.awaitingReceive = true;
					this.awaitingSince = now;
					// About to wait: first send what earlier messages produced.
					this.transmitter.receiverIdle();
				}
				long window = receiverNotReadyWindow();
				if (window == Long.MAX_VALUE || now - this.awaitingSince < window) {
					// Nothing waits here: the path stops, and goes on when a receive is posted
					// or the window closes (the I/O thread's timer).
					return true;
				}
				this.awaitingReceive = false;
				return terminate(TerminateError.DDP_UNTAGGED_INVALID_MSN_NO_BUFFER, "a Send (MSN "
						+ Integer.toUnsignedString(f.msn()) + ") arrived but no receive was posted in time", false);
			}
			this.awaitingReceive = false;
			String problem = this.qp.table().checkLocalAccess(wr.sgList(), true, this.qp.pd());
			if (problem != null) {
				String detail = "receive buffer unusable: " + problem;
				this.qp.completeReceive(wr, CompletionStatus.LOC_PROT_ERR, 0, false, 0, detail);
				return terminate(TerminateError.DDP_LOCAL_CATASTROPHIC, detail, false);
			}
			this.receiving = wr;
			this.receiveCursor.reset(wr.sgList());
		}
		int length = f.payloadLength();
		if (this.receiveCursor.position() + length > this.receiveCursor.capacity()) {
			String detail = "incoming Send of at least " + (this.receiveCursor.position() + length)
					+ " bytes does not fit the posted receive of " + this.receiveCursor.capacity() + " bytes";
			this.qp.completeReceive(this.receiving, CompletionStatus.LOC_LEN_ERR, 0, false, 0, detail);
			this.receiving = null;
			return terminate(TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG, detail, false);
		}
		synchronized (this.qp.placementLock()) {
			if (this.qp.state() != QueuePairState.RTS) {
				// Flushed meanwhile: the receive buffer may be someone else's by now.
				return false;
			}
			this.receiveCursor.place(f.source(), f.payloadOffset(), length);
		}
		if (!f.last()) {
			return true;
		}
		ReceiveWorkRequest wr = this.receiving;
		this.receiving = null;
		int received = (int) this.receiveCursor.position();
		this.receiveCursor.clear();
		boolean invalidate = f.opcode().invalidates();
		int stag = f.invalidateStag();
		if (invalidate) {
			// RFC 5040 §6.10: invalidate the STag before the Send is delivered.
			try {
				this.qp.table().invalidateRemotely(stag, this.qp.pd(), this.qp);
			}
			catch (RemoteAccessException ex) {
				// RFC 5040 §7.1: "Invalid STag" for an STag not offered to this stream, which
				// local memory (a Read sink) never is; "cannot be invalidated" only for one that is.
				// The Terminate goes out before the flushed receive can make the consumer close.
				boolean open = terminate(rdmapError(ex), ex.getMessage(), false);
				this.qp.completeReceive(wr, CompletionStatus.WR_FLUSH_ERR, 0, false, 0,
						"flushed: the peer's Send with Invalidate named an STag it may not invalidate");
				return open;
			}
		}
		this.qp.completeReceive(wr, CompletionStatus.SUCCESS, received, invalidate, invalidate ? stag : 0, null);
		return true;
	}

	private long receiverNotReadyWindow() {
		RnrPolicy policy = this.qp.rnrPolicy();
		if (policy.isInfinite()) {
			return Long.MAX_VALUE;
		}
		long window = policy.timer().toNanos() * (policy.retryCount() + 1L);
		return Math.max(window, this.settings.rnrGrace().toNanos());
	}

	// RFC 5040 §4.3, RFC 5041 §7: a tagged segment is placed only after its buffer checks.
	private boolean placeWrite() {
		Fpdu f = this.fpdu;
		int length = f.payloadLength();
		SoftwareMemoryRegion region;
		try {
			region = this.qp.table().checkRemoteAccess(f.stag(), f.taggedOffset(), length, AccessFlag.REMOTE_WRITE,
					this.qp.pd(), this.qp);
		}
		catch (RemoteAccessException ex) {
			return terminate(ddpTaggedError(ex), "refused RDMA Write: " + ex.getMessage(), false);
		}
		synchronized (region) {
			// Checked again under the lock that invalidation and re-registration take, so the
			// bytes land only while the STag still names this memory (RFC 5041 §7).
			if (!region.stillOffered(f.stag(), this.qp.pd(), this.qp)) {
				return terminate(TerminateError.DDP_TAGGED_INVALID_STAG,
						"refused RDMA Write: STag " + Integer.toHexString(f.stag()) + " was retired meanwhile", false);
			}
			region.memory().put(region.offsetOf(f.taggedOffset()), f.source(), f.payloadOffset(), length);
		}
		return true;
	}

	// RFC 5040 §5.4: check the data source, then queue the Read Response for the transmitter.
	private boolean queueReadResponse() {
		Fpdu f = this.fpdu;
		int size = f.readSize();
		if (size < 0) {
			return terminate(TerminateError.RDMAP_BASE_OR_BOUNDS_VIOLATION,
					"Read Request of " + Integer.toUnsignedString(size) + " bytes exceeds 2^31-1", true);
		}
		SoftwareMemoryRegion region = null;
		int offset = 0;
		if (size > 0) {
			try {
				region = this.qp.table().checkRemoteAccess(f.readSourceStag(), f.readSourceTaggedOffset(), size,
						AccessFlag.REMOTE_READ, this.qp.pd(), this.qp);
			}
			catch (RemoteAccessException ex) {
				return terminate(rdmapError(ex), "refused RDMA Read Request: " + ex.getMessage(), true);
			}
			offset = region.offsetOf(f.readSourceTaggedOffset());
		}
		if (!this.irq.add(region, f.readSourceStag(), offset, size, f.readSinkStag(), f.readSinkTaggedOffset())) {
			return terminate(TerminateError.RDMAP_CATASTROPHIC_STREAM, "the peer sent more outstanding Read Requests"
					+ " than the IRD of " + this.settings.ird() + " agreed in the MPA exchange (RFC 6581)", true);
		}
		this.transmitter.kick();
		return true;
	}

	// RFC 5040 §5.5: Read Responses arrive in the order of the Read Requests.
	private boolean placeReadResponse() {
		Fpdu f = this.fpdu;
		if (this.orq.isEmpty()) {
			return terminate(TerminateError.RDMAP_UNEXPECTED_OPCODE, "a Read Response arrived but no Read Request"
					+ " is outstanding", false);
		}
		if (!this.responding) {
			this.responding = true;
			this.responseCursor.reset(this.orq.headSgList(), this.orq.headSinkKeys());
		}
		int length = f.payloadLength();
		long placed = this.responseCursor.position();
		if (f.stag() != this.orq.headSinkStag()) {
			return terminate(TerminateError.DDP_TAGGED_INVALID_STAG, String.format(
					"Read Response names sink STag 0x%08x but the outstanding Read Request named 0x%08x", f.stag(),
					this.orq.headSinkStag()), false);
		}
		if (this.orq.headSeq() == OutboundReadQueue.NUDGE) {
			// Our zero-length nudge Read has no sink: its bytes are dropped, never placed.
			// Linux's siw (Debian's 6.1.0 kernel, docs/interop.md) answers a zero-length Read
			// Request that arrives while it is still transmitting with a Response as long as
			// the message it sent before, the length being left over in its work queue element.
			if (f.last()) {
				completeResponse();
			}
			return true;
		}
		if (f.taggedOffset() != this.orq.headSinkOffset() + placed || placed + length > this.orq.headLength()) {
			return terminate(TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION,
					"Read Response segment at TO 0x" + Long.toHexString(f.taggedOffset()) + " with " + length
							+ " bytes lies outside the sink of the outstanding Read Request",
					false);
		}
		boolean placedAll;
		synchronized (this.qp.placementLock()) {
			if (this.qp.state() != QueuePairState.RTS) {
				// Flushed meanwhile: the sink may be someone else's by now.
				return false;
			}
			placedAll = this.responseCursor.place(f.source(), f.payloadOffset(), length);
		}
		if (!placedAll) {
			// RFC 5041 §7: the sink's STag is checked for every segment, like any tagged buffer's.
			String detail = SegmentTargetRetiredException.sinkReleasedDetail(f.stag());
			return terminate(TerminateError.DDP_TAGGED_INVALID_STAG, detail, false);
		}
		if (!f.last()) {
			return true;
		}
		if (this.responseCursor.position() != this.orq.headLength()) {
			return terminate(TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION, "Read Response of "
					+ this.responseCursor.position() + " bytes for a Read Request of " + this.orq.headLength(), false);
		}
		completeResponse();
		return true;
	}

	/**
	 * Places a large Read Response segment whose header has arrived straight from the socket
	 * into the sink memory, sparing the copy through the receive buffer (CRC off only: with
	 * CRC the whole FPDU must be checked before any byte is placed, RFC 5044 §4.4). Only a
	 * segment that passes every check of {@link #placeReadResponse()} goes this way; anything
	 * else is left to the parser, which reports it.
	 * @return 1 if placed, 0 if not applicable, -1 if the stream ended
	 */
	private int placeResponseFromSocket() throws IOException {
		ByteBuffer b = this.in;
		int pos = b.position();
		int length = directSegmentLength(RdmapOpcode.RDMA_READ_RESPONSE);
		if (length < 0) {
			return 0;
		}
		int header = DIRECT_HEADER;
		int available = b.remaining();
		int ulpduLength = length + TaggedHeader.LENGTH;
		boolean last = (b.get(pos + 2) & 0x40) != 0;
		int stag = b.getInt(pos + 4);
		long taggedOffset = b.getLong(pos + 8);
		if (this.orq.isEmpty() || stag != this.orq.headSinkStag()) {
			return 0;
		}
		if (!this.responding) {
			this.responding = true;
			this.responseCursor.reset(this.orq.headSgList(), this.orq.headSinkKeys());
		}
		long placed = this.responseCursor.position();
		if (taggedOffset != this.orq.headSinkOffset() + placed || placed + length > this.orq.headLength()
				|| (last && placed + length != this.orq.headLength())) {
			return 0;
		}
		this.validator.validateTagged(RdmapOpcode.RDMA_READ_RESPONSE, stag, taggedOffset, length, last);
		int buffered = available - header;
		synchronized (this.qp.placementLock()) {
			if (this.qp.state() != QueuePairState.RTS) {
				return -1;
			}
			if (!this.responseCursor.place(b, pos + header, buffered)) {
				throw SegmentTargetRetiredException.sinkReleased(stag);
			}
		}
		b.position(b.limit());
		this.transmitter.receiverIdle();
		startDirect(DIRECT_RESPONSE, length, buffered, last, Mpa.fpduLength(ulpduLength) - header - length);
		return this.connection.isEstablished() ? 1 : -1;
	}

	/**
	 * Places a large RDMA Write segment whose header has arrived straight from the socket into
	 * the target region, as {@link #placeResponseFromSocket()} does for Read Responses: RDMA
	 * Write data is what carries bulk results (RFC 8166 §3.4.6), so it should not pass through
	 * the receive buffer either. Only a segment that passes every check of {@link #placeWrite()}
	 * goes this way; a segment that fails one is left to the parser, which reports it with a
	 * Terminate once the whole FPDU is in.
	 * @return 1 if placed, 0 if not applicable, -1 if the stream ended
	 */
	private int placeWriteFromSocket() throws IOException {
		ByteBuffer b = this.in;
		int pos = b.position();
		int length = directSegmentLength(RdmapOpcode.RDMA_WRITE);
		if (length < 0) {
			return 0;
		}
		int header = DIRECT_HEADER;
		int available = b.remaining();
		int ulpduLength = length + TaggedHeader.LENGTH;
		boolean last = (b.get(pos + 2) & 0x40) != 0;
		int stag = b.getInt(pos + 4);
		long taggedOffset = b.getLong(pos + 8);
		SoftwareMemoryRegion region;
		try {
			region = this.qp.table().checkRemoteAccess(stag, taggedOffset, length, AccessFlag.REMOTE_WRITE, this.qp.pd(),
					this.qp);
		}
		catch (RemoteAccessException ex) {
			return 0;
		}
		this.validator.validateTagged(RdmapOpcode.RDMA_WRITE, stag, taggedOffset, length, last);
		int buffered = available - header;
		int target = region.offsetOf(taggedOffset);
		synchronized (region) {
			if (!region.stillOffered(stag, this.qp.pd(), this.qp)) {
				return 0;
			}
			region.memory().put(target, b, pos + header, buffered);
		}
		b.position(b.limit());
		this.transmitter.receiverIdle();
		this.directRegion = region;
		this.directStag = stag;
		this.directTarget = target;
		startDirect(DIRECT_WRITE, length, buffered, last, Mpa.fpduLength(ulpduLength) - header - length);
		return this.connection.isEstablished() ? 1 : -1;
	}

	/**
	 * The rest of a segment whose first {@code placed} bytes came with its header is read
	 * straight into memory from now on ({@link #continueDirect}), over as many turns as the
	 * socket needs.
	 */
	private void startDirect(int kind, int length, int placed, boolean last, int skip) {
		this.direct = kind;
		this.directLength = length;
		this.directPlaced = placed;
		this.directLast = last;
		this.directSkip = skip;
	}

	/**
	 * Reads what the socket holds of the segment being placed straight into memory.
	 * @param caller whether a caller runs the path: no byte budget then
	 * @return 1 once the segment is placed, 0 if the socket is empty before, 2 if the turn's
	 * byte budget is spent before, -1 if the stream ended
	 */
	private int continueDirect(boolean caller) throws IOException {
		boolean write = this.direct == DIRECT_WRITE;
		while (this.directPlaced < this.directLength) {
			int left = this.directLength - this.directPlaced;
			int n;
			if (write) {
				n = readDirect(this.directRegion, this.directStag, true, this.directTarget + this.directPlaced, left);
			}
			else {
				SgCursor cursor = this.responseCursor;
				int piece = cursor.piece(left);
				n = readDirect(cursor.pieceRegion(), cursor.pieceKey(), false, cursor.pieceOffset(), piece);
				if (n > 0) {
					cursor.advance(n);
				}
			}
			if (n < 0) {
				throw new FpduTruncatedException(this.directPlaced, this.directLength);
			}
			if (n == 0) {
				return 0;
			}
			this.directPlaced += n;
			this.turnBytes += n;
			if (!caller && this.turnBytes >= TURN_BUDGET && this.directPlaced < this.directLength) {
				return 2;
			}
		}
		boolean response = !write;
		this.direct = DIRECT_NONE;
		this.directRegion = null;
		this.directMemory = null;
		this.directView = null;
		this.pendingSkip = this.directSkip;
		if (this.pendingSkip == 0) {
			this.deadline.stop();
		}
		if (response && this.directLast) {
			completeResponse();
		}
		return this.connection.isEstablished() ? 1 : -1;
	}

	/**
	 * Peeks at the next FPDU in the receive buffer: whether it is a tagged segment of
	 * {@code opcode} worth placing straight from the socket, that is, its header is in but not
	 * all of its payload, and the payload is at least {@link #DIRECT_MINIMUM} long.
	 * @param opcode RDMA Write or Read Response
	 * @return the segment's payload length, or -1 if it is not such a segment (anything odd is
	 * left to the parser to judge and report)
	 */
	private int directSegmentLength(RdmapOpcode opcode) {
		ByteBuffer b = this.in;
		int pos = b.position();
		int available = b.remaining();
		if (available < DIRECT_HEADER) {
			return -1;
		}
		int ulpduLength = Short.toUnsignedInt(b.getShort(pos));
		int ddp = b.get(pos + 2) & 0xFF;
		int rdmap = b.get(pos + 3) & 0xFF;
		// T set, reserved bits clear, DDP and RDMAP version 1, the opcode asked for (RFC 5041
		// §5.1, RFC 5040 §4.2).
		if ((ddp & 0xBF) != 0x81 || rdmap != (0x40 | opcode.code()) || ulpduLength < TaggedHeader.LENGTH) {
			return -1;
		}
		int length = ulpduLength - TaggedHeader.LENGTH;
		return (length < DIRECT_MINIMUM || available - DIRECT_HEADER >= length) ? -1 : length;
	}

	/**
	 * One read from the socket into {@code region} at {@code offset}, of at most {@code count}
	 * bytes, under the locks that decide whether the memory is still this stream's: for an
	 * RDMA Write, the region's, while {@code key} is its STag and offered to this connection;
	 * for a Read Response, the queue pair's placement lock, while it is not flushed, and the
	 * region's, while {@code key} is still the sink's key (RFC 5041 §7 checks every tagged
	 * segment; a segment read over seconds must not outlive its STag). A peer that stops in
	 * the middle is held to the FPDU timeout, however slowly its bytes come.
	 * @param region the Write's target or the sink piece's region
	 * @param key the Write's STag, or the key the sink had when the Read Request went out
	 * @param write whether this is an RDMA Write
	 * @return bytes read, 0 if the socket is empty, -1 at the end of the stream
	 */
	private int readDirect(SoftwareMemoryRegion region, int key, boolean write, int offset, int count)
			throws IOException {
		ByteBuffer memory = region.memory();
		if (memory != this.directMemory) {
			this.directMemory = memory;
			this.directView = memory.duplicate();
		}
		ByteBuffer view = this.directView;
		view.limit(offset + count).position(offset);
		if (write) {
			synchronized (region) {
				if (!region.stillOffered(key, this.qp.pd(), this.qp)) {
					throw SegmentTargetRetiredException.write(key);
				}
				return this.channel.read(view);
			}
		}
		synchronized (this.qp.placementLock()) {
			if (this.qp.state() != QueuePairState.RTS) {
				throw SegmentTargetRetiredException.flushed();
			}
			synchronized (region) {
				if (!SgCursor.holdsKey(region, key)) {
					throw SegmentTargetRetiredException.sinkReleased(key);
				}
				return this.channel.read(view);
			}
		}
	}

	/**
	 * The peer left part of an FPDU unsent, or a DDP message without its next segment, for the
	 * FPDU timeout: the stream is as good as lost (RFC 5044 §8, LLP "TCP connection lost").
	 * @param betweenSegments whether the last FPDU is complete but its message is not
	 */
	private void stalled(boolean betweenSegments) {
		String what = betweenSegments ? "a DDP message without its next segment" : "an FPDU half sent";
		this.connection.failWithTerminate(TerminateMessage.of(TerminateError.MPA_TCP_CONNECTION_LOST), "the peer left "
				+ what + " for " + this.deadline.timeoutMillis() + " ms (" + SiwSettings.FPDU_TIMEOUT_MILLIS + ")");
	}

	private void completeResponse() {
		long seq = this.orq.headSeq();
		this.orq.removeHead();
		this.responding = false;
		this.responseCursor.clear();
		if (seq != OutboundReadQueue.NUDGE) {
			this.qp.readCompleted(seq);
		}
		this.transmitter.kick();
	}

	/**
	 * Ends the stream with a Terminate quoting the current segment (RFC 5040 §4.8).
	 * @return {@code false}
	 */
	private boolean terminate(TerminateError error, String detail, boolean withReadRequest) {
		Fpdu f = this.fpdu;
		ByteBuffer source = f.source();
		int headerLength = f.tagged() ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH;
		byte[] ddpHeader = new byte[headerLength];
		source.get(f.start() + Mpa.LENGTH_FIELD, ddpHeader);
		byte[] rdmapHeader = null;
		if (withReadRequest) {
			rdmapHeader = new byte[ReadRequest.LENGTH];
			source.get(f.payloadOffset(), rdmapHeader);
		}
		this.connection.failWithTerminate(TerminateMessage.of(error, f.ulpduLength(), ddpHeader, rdmapHeader),
				detail + " (" + error + ")");
		return false;
	}

	static TerminateError rdmapError(RemoteAccessException ex) {
		return switch (ex.error()) {
			case INVALID_STAG, STAG_INVALIDATED -> TerminateError.RDMAP_INVALID_STAG;
			case BASE_OR_BOUNDS -> TerminateError.RDMAP_BASE_OR_BOUNDS_VIOLATION;
			case ACCESS_RIGHTS -> TerminateError.RDMAP_ACCESS_RIGHTS_VIOLATION;
			case TO_WRAP -> TerminateError.RDMAP_TO_WRAP;
			case STAG_CANNOT_BE_INVALIDATED -> TerminateError.RDMAP_STAG_CANNOT_BE_INVALIDATED;
		};
	}

	static TerminateError ddpTaggedError(RemoteAccessException ex) {
		return switch (ex.error()) {
			case INVALID_STAG, STAG_INVALIDATED, ACCESS_RIGHTS, STAG_CANNOT_BE_INVALIDATED ->
				TerminateError.DDP_TAGGED_INVALID_STAG;
			case BASE_OR_BOUNDS -> TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION;
			case TO_WRAP -> TerminateError.DDP_TAGGED_TO_WRAP;
		};
	}

}
