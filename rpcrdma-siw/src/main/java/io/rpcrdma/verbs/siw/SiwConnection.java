package io.rpcrdma.verbs.siw;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.rpcrdma.verbs.CallerReceivePath;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectTimeoutException;
import io.rpcrdma.verbs.ConnectionEvent;
import io.rpcrdma.verbs.ConnectionEventListener;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.WaitingCaller;
import io.rpcrdma.verbs.siw.wire.IwarpWireException;
import io.rpcrdma.verbs.siw.wire.Mpa;
import io.rpcrdma.verbs.siw.wire.MpaCodec;
import io.rpcrdma.verbs.siw.wire.MpaConnectionParameters;
import io.rpcrdma.verbs.siw.wire.MpaFrame;
import io.rpcrdma.verbs.siw.wire.MpaIrdOrd;
import io.rpcrdma.verbs.siw.wire.MpaNegotiator;
import io.rpcrdma.verbs.siw.wire.MpaRejectedException;
import io.rpcrdma.verbs.siw.wire.TerminateError;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;

/**
 * One end of an iWARP connection: a TCP connection that carries the MPA exchange (RFC 5044
 * §7.1 with RFC 6581's IRD/ORD) and then RDMAP messages. The connection has no thread of its
 * own: one of the provider's shared I/O threads ({@link SiwIoThread}) connects it
 * (non-blocking connect and MPA exchange, with their deadline as a timer), runs its receive
 * path in turns ({@link RdmapReceiver}) and finishes what posting threads cannot transmit at
 * once ({@link RdmapTransmitter}).
 * <p>
 * The SPI's private data travels as the MPA ULP private data, after the 4 IRD/ORD bytes.
 * Errors end the stream with a Terminate (RFC 5040 §4.8, §5.3) and close it; events go to
 * the connection's listener on the thread that observed the change.
 * <p>
 * A caller waiting for its reply may run the receive path itself ({@link CallerReceivePath},
 * {@link ReceiveRole}), so that the reply wakes it straight from {@code epoll} instead of
 * waking the I/O thread, which then wakes the caller: the socket's two wake-ups per round
 * trip instead of three ({@link SiwSettings#callerReceives()}).
 */
final class SiwConnection implements RdmaConnection, CallerReceivePath {

	private static final System.Logger logger = System.getLogger(SiwConnection.class.getName());

	private enum State {

		CONNECTING, ESTABLISHED, CLOSED

	}

	private final SiwProvider provider;

	private final SiwSettings settings;

	private final boolean active;

	private final AtomicReference<State> state = new AtomicReference<>(State.CONNECTING);

	private final CompletableFuture<RdmaConnection> established = new CompletableFuture<>();

	// What came after the MPA frame (FPDUs the peer sent at once), for the receive path;
	// borrowed from the provider's stream buffers only when something did.
	private ByteBuffer in;

	// The MPA Request or Reply being read: 532 bytes at most, the codec's limit.
	private ByteBuffer requestBytes;

	// The I/O thread that connects this connection (or reads its MPA Request) and serves it.
	private volatile SiwIoThread io;

	private final ConnectParameters parameters;

	private final SiwListener listenerSide;

	private volatile SiwQueuePair qp;

	private volatile ConnectionEventListener listener;

	private volatile SocketChannel channel;

	private volatile InetSocketAddress localAddress;

	private volatile InetSocketAddress remoteAddress;

	private volatile PrivateData remotePrivateData = PrivateData.EMPTY;

	private volatile RdmapTransmitter transmitter;

	private volatile SiwConnectionRequest request;

	private MpaConnectionParameters mpa;

	// A passive connection's MPA Request, read by its I/O thread.
	private MpaFrame receivedRequest;

	// The I/O thread reading a passive connection's MPA Request, and whether that wait ended
	// (the frame read, the deadline passed, or the connection dropped): its own fields.
	private volatile SiwIoThread requestReader;

	private boolean requestWaitEnded;

	private int peerIrd;

	private final ReceiveRole receiveRole = new ReceiveRole(this::wakeReceivePath, this::turnReceivePath);

	// Set once the established stream is read: callers may lead from then on.
	private volatile RdmapReceiver receiver;

	// The established stream's receive path, run by the I/O thread and leading callers.
	private volatile RdmapReceiver path;

	// Once the passive side's wait for the handler's answer ended (its pending place given back).
	private final java.util.concurrent.atomic.AtomicBoolean answerSettled = new java.util.concurrent.atomic.AtomicBoolean();

	// The active side's MPA exchange: what it sent and what it decodes with.
	private MpaNegotiator negotiator;

	private MpaFrame sentRequest;

	private ByteBuffer requestOut;

	private long connectDeadline;

	private SiwConnection(SiwProvider provider, SiwSettings settings, boolean active, SiwQueuePair qp,
			ConnectParameters parameters, SocketChannel channel, SiwListener listenerSide) {
		this.provider = provider;
		this.settings = settings;
		this.active = active;
		this.qp = qp;
		this.parameters = parameters;
		this.channel = channel;
		this.listenerSide = listenerSide;
		this.listener = (parameters != null && parameters.listener() != null) ? parameters.listener()
				: ConnectionEventListener.NONE;
		this.remoteAddress = (parameters != null) ? parameters.remoteAddress() : null;
	}

	static SiwConnection active(SiwProvider provider, SiwSettings settings, SiwQueuePair qp,
			ConnectParameters parameters) {
		return new SiwConnection(provider, settings, true, qp, parameters, null, null);
	}

	static SiwConnection passive(SiwProvider provider, SiwSettings settings, SocketChannel channel,
			SiwListener listener) {
		return new SiwConnection(provider, settings, false, null, null, channel, listener);
	}

	CompletableFuture<RdmaConnection> establishedFuture() {
		return this.established;
	}

	RdmapTransmitter transmitter() {
		return this.transmitter;
	}

	/** @return the TCP stream under the connection, once connected (tests size its buffers) */
	SocketChannel channel() {
		return this.channel;
	}

	// ---- active side ------------------------------------------------------------------

	/**
	 * Connects on one of the provider's I/O threads: a non-blocking TCP connect
	 * ({@code OP_CONNECT}), the MPA Request written and the Reply read as the socket allows
	 * (RFC 5044 §7.1), all within the connect timeout, which is a timer of the I/O thread;
	 * no thread waits for a slow or silent peer. Called on the connecting thread.
	 * @param io the I/O thread to connect on, which serves the connection afterwards
	 */
	void connectActively(SiwIoThread io) {
		this.io = io;
		this.connectDeadline = System.nanoTime() + this.parameters.timeout().toNanos();
		this.negotiator = new MpaNegotiator(this.settings.crcPolicy());
		this.sentRequest = this.negotiator.request(MpaIrdOrd.of(this.settings.ird(), this.settings.ord()),
				this.parameters.privateData().bytes());
		io.execute(() -> {
			io.at(this.connectDeadline, this::connectTimedOut);
			startConnect();
		});
	}

	/** On the I/O thread: opens the socket and starts connecting. */
	private void startConnect() {
		try {
			SocketChannel ch = SocketChannel.open();
			this.channel = ch;
			if (this.state.get() != State.CONNECTING) {
				closeChannel();
				return;
			}
			configure(ch);
			ch.configureBlocking(false);
			if (ch.connect(this.parameters.remoteAddress())) {
				connected();
			}
			else {
				this.io.whenConnected(ch, this::connected);
			}
		}
		catch (IOException ex) {
			activeFailed(ex);
		}
	}

	/** On the I/O thread: the TCP connect finished (or failed); the MPA Request goes out. */
	private void connected() {
		if (this.state.get() != State.CONNECTING) {
			return;
		}
		SocketChannel ch = this.channel;
		try {
			if (!ch.finishConnect()) {
				this.io.whenConnected(ch, this::connected);
				return;
			}
			this.localAddress = (InetSocketAddress) ch.getLocalAddress();
			this.requestOut = MpaExchange.CODEC.encode(this.sentRequest);
			this.requestBytes = ByteBuffer.allocate(MpaCodec.HEADER_LENGTH + MpaCodec.MAX_PRIVATE_DATA_LENGTH);
			writeRequest();
		}
		catch (IOException ex) {
			activeFailed(ex);
		}
	}

	/** On the I/O thread: writes what the socket takes of the MPA Request, then reads the Reply. */
	private void writeRequest() {
		if (this.state.get() != State.CONNECTING) {
			return;
		}
		try {
			this.channel.write(this.requestOut);
			if (this.requestOut.hasRemaining()) {
				this.io.whenWritable(this.channel, this::writeRequest);
				return;
			}
			this.requestOut = null;
			readReply();
		}
		catch (IOException ex) {
			activeFailed(ex);
		}
	}

	/** On the I/O thread: reads what has come of the MPA Reply; complete, the connection is up. */
	private void readReply() {
		if (this.state.get() != State.CONNECTING) {
			return;
		}
		MpaFrame reply;
		try {
			java.util.Optional<MpaFrame> frame = readFrame(MpaFrame.Kind.REPLY);
			if (frame == null) {
				this.io.whenReadable(this.channel, this::readReply);
				return;
			}
			reply = frame.get();
			this.mpa = this.negotiator.initiatorParameters(this.sentRequest, reply);
		}
		catch (MpaRejectedException ex) {
			PrivateData data = privateDataOf(ex.reply().privateData());
			connectFailed(new ConnectionRejectedException("The peer at " + this.parameters.remoteAddress()
					+ " rejected the connection request (MPA Reply with R set, RFC 5044 §7.1)", data), data);
			return;
		}
		catch (IOException | IwarpWireException ex) {
			activeFailed(ex);
			return;
		}
		this.peerIrd = (reply.irdOrd() != null) ? reply.irdOrd().ird() : this.settings.ord();
		PrivateData data = privateDataOf(reply.privateData());
		this.remotePrivateData = data;
		try {
			this.qp.enterReadyToSend();
		}
		catch (RuntimeException ex) {
			connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
					"The queue pair became unusable while connecting: " + ex.getMessage()), PrivateData.EMPTY);
			return;
		}
		startTransmitter();
		if (!this.state.compareAndSet(State.CONNECTING, State.ESTABLISHED)) {
			this.transmitter.close(null);
			return;
		}
		emit(new ConnectionEvent(ConnectionEventType.ESTABLISHED, data,
				"connection to " + this.remoteAddress + " established"));
		this.established.complete(this);
		startReceiving();
	}

	/**
	 * On the I/O thread: reads what has come of an MPA frame into {@link #requestBytes}; once
	 * the whole frame is in, what followed it moves to a receive buffer for the FPDU parser.
	 * @return the frame, or {@code null} if the socket is empty before it is complete
	 * @throws EOFException if the peer closed first
	 */
	private java.util.Optional<MpaFrame> readFrame(MpaFrame.Kind kind) throws IOException {
		ByteBuffer bytes = this.requestBytes;
		while (true) {
			bytes.flip();
			java.util.Optional<MpaFrame> frame;
			try {
				frame = MpaExchange.CODEC.decode(bytes, kind);
			}
			finally {
				bytes.compact();
			}
			if (frame.isPresent()) {
				bytes.flip();
				if (bytes.hasRemaining()) {
					this.in = this.provider.streamBuffers().take();
					this.in.put(bytes);
				}
				this.requestBytes = null;
				return frame;
			}
			if (!bytes.hasRemaining()) {
				// Cannot happen with a valid frame: the codec refuses longer private data.
				throw new EOFException("an MPA frame longer than " + bytes.capacity() + " bytes");
			}
			int n = this.channel.read(bytes);
			if (n < 0) {
				throw new EOFException("the peer closed the TCP connection during the MPA exchange");
			}
			if (n == 0) {
				return null;
			}
		}
	}

	/** On the I/O thread: the connect timeout passed before the connection was up. */
	private void connectTimedOut() {
		if (this.state.get() != State.CONNECTING) {
			return;
		}
		connectFailed(new ConnectTimeoutException("The peer at " + this.parameters.remoteAddress()
				+ " did not answer the connection request within " + this.parameters.timeout().toMillis()
				+ " ms; check that it is up and answers connection requests"), PrivateData.EMPTY);
	}

	private void activeFailed(Exception ex) {
		if (ex instanceof ConnectException) {
			connectFailed(new ConnectionRefusedException("Nothing accepts TCP connections at "
					+ this.parameters.remoteAddress() + " (" + ex.getMessage()
					+ "); start the listener first or check the address"), PrivateData.EMPTY);
			return;
		}
		connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR, "Connecting to "
				+ this.parameters.remoteAddress() + " failed: " + ex.getMessage()), PrivateData.EMPTY);
	}

	// ---- passive side -----------------------------------------------------------------

	/**
	 * Waits for the initiator's MPA Request on one of the provider's I/O threads (the
	 * initiator speaks first, RFC 5044 §7.1.2): a TCP connection that sends nothing, or a byte
	 * now and then, holds no thread, only its place among the pending connections, until
	 * {@code siw.mpa-timeout-millis} closes it. The whole frame read, the listener's handler
	 * gets the request, and the connection waits for its answer on the same I/O thread.
	 * Called on the listener's thread.
	 * @param io the I/O thread to read on, which serves the connection afterwards
	 */
	void awaitRequest(SiwIoThread io) {
		SocketChannel ch = this.channel;
		this.io = io;
		try {
			configure(ch);
			this.remoteAddress = (InetSocketAddress) ch.getRemoteAddress();
			this.localAddress = (InetSocketAddress) ch.getLocalAddress();
			ch.configureBlocking(false);
		}
		catch (IOException ex) {
			logger.log(System.Logger.Level.DEBUG, "Dropping a TCP connection that failed at once: " + ex);
			abandon();
			this.provider.passiveSetupEnded();
			return;
		}
		this.requestReader = io;
		this.requestBytes = ByteBuffer.allocate(MpaCodec.HEADER_LENGTH + MpaCodec.MAX_PRIVATE_DATA_LENGTH);
		// One deadline for the whole frame, however slowly its bytes come.
		long deadline = System.nanoTime() + this.settings.mpaTimeout().toNanos();
		io.execute(() -> {
			io.at(deadline, () -> endRequestWait("no complete MPA Request within " + this.settings.mpaTimeout().toMillis()
					+ " ms"));
			readRequest();
		});
	}

	/** On the request's I/O thread: reads what has come of the MPA Request. */
	private void readRequest() {
		if (this.requestWaitEnded) {
			return;
		}
		try {
			java.util.Optional<MpaFrame> frame = readFrame(MpaFrame.Kind.REQUEST);
			if (frame == null) {
				this.requestReader.whenReadable(this.channel, this::readRequest);
				return;
			}
			this.requestWaitEnded = true;
			this.receivedRequest = frame.get();
			answerPassively();
		}
		catch (IOException | IwarpWireException ex) {
			endRequestWait("no valid MPA Request: " + ex);
		}
	}

	/** On the request's I/O thread: the wait ends without a request; the connection goes. */
	private void endRequestWait(String why) {
		if (this.requestWaitEnded) {
			return;
		}
		this.requestWaitEnded = true;
		this.requestBytes = null;
		logger.log(System.Logger.Level.DEBUG, "Dropping a TCP connection that sent " + why);
		abandon();
		this.provider.passiveSetupEnded();
	}

	/**
	 * On the I/O thread, the MPA Request read: refuses it if it cannot be met, else hands it
	 * to the listener's handler and waits for the answer, watching the socket meanwhile, since
	 * a requester that gives up closes its end, which expires the request.
	 */
	private void answerPassively() {
		SocketChannel ch = this.channel;
		MpaFrame requestFrame = this.receivedRequest;
		MpaNegotiator negotiator = new MpaNegotiator(this.settings.crcPolicy());
		if (negotiator.refusal(requestFrame).isPresent()) {
			try {
				MpaExchange.send(ch, negotiator.rejectReply(requestFrame, new byte[0]),
						System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
			}
			catch (IOException ex) {
				logger.log(System.Logger.Level.DEBUG, "The refused requester is gone: " + ex);
			}
			finally {
				settleAnswer();
			}
			return;
		}
		SiwConnectionRequest req = new SiwConnectionRequest(this, this.listenerSide, requestFrame, negotiator,
				privateDataOf(requestFrame.privateData()));
		this.request = req;
		this.listenerSide.deliver(req);
		watchRequester();
	}

	/**
	 * On the I/O thread, while the request waits for its answer: a requester that closed its
	 * end expires it. Bytes it sent meanwhile are kept for the receive path.
	 */
	private void watchRequester() {
		SiwConnectionRequest req = this.request;
		if (!req.isPending()) {
			return;
		}
		try {
			ByteBuffer probe = ByteBuffer.allocate(MpaCodec.HEADER_LENGTH);
			int n = this.channel.read(probe);
			if (n < 0) {
				req.expire();
				return;
			}
			boolean room = (n == 0) || keepEarlyBytes(probe.flip());
			if (room) {
				this.io.whenReadable(this.channel, this::watchRequester);
			}
		}
		catch (IOException ex) {
			// The requester reset the connection, or the provider closed.
			req.expire();
		}
	}

	/**
	 * The request was answered (accepted, rejected) or expired: for
	 * {@link SiwConnectionRequest}. The connection's place among the pending ones is given
	 * back on its I/O thread; an accepted connection starts receiving there, any other closes.
	 */
	void requestAnswered() {
		this.io.execute(this::settleAnswer);
	}

	/** On the I/O thread, once: the answer phase is over. */
	private void settleAnswer() {
		if (!this.answerSettled.compareAndSet(false, true)) {
			return;
		}
		this.provider.passiveSetupEnded();
		SiwConnectionRequest req = this.request;
		if (req == null || !req.isAccepted()) {
			abandon();
			return;
		}
		if (isEstablished()) {
			startReceiving();
		}
	}

	/**
	 * Whether the requester closed its end while its request waited; for accept.
	 */
	boolean requesterGone() {
		try {
			ByteBuffer probe = ByteBuffer.allocate(1);
			int n = this.channel.read(probe);
			if (n > 0) {
				// An early FPDU byte: it stays for the receive path.
				keepEarlyBytes(probe.flip());
			}
			return n < 0;
		}
		catch (IOException ex) {
			return true;
		}
	}

	/**
	 * Keeps bytes the requester sent before its answer came (FPDUs sent early) for the
	 * receive path; a requester that fills the receive buffer so is not read further.
	 * @return whether there is room for more
	 */
	private synchronized boolean keepEarlyBytes(ByteBuffer bytes) {
		if (this.in == null) {
			this.in = this.provider.streamBuffers().take();
		}
		if (bytes.remaining() > this.in.remaining()) {
			bytes.limit(bytes.position() + this.in.remaining());
		}
		this.in.put(bytes);
		return this.in.hasRemaining();
	}

	/**
	 * Accepts: sends the MPA Reply and makes the queue pair ready; for
	 * {@link SiwConnectionRequest#accept}.
	 */
	void acceptWith(SiwQueuePair acceptor, MpaFrame requestFrame, MpaNegotiator negotiator, PrivateData data,
			ConnectionEventListener events) {
		this.qp = acceptor;
		this.listener = (events != null) ? events : ConnectionEventListener.NONE;
		MpaFrame reply = negotiator.acceptReply(requestFrame,
				requestFrame.enhanced() ? MpaIrdOrd.of(this.settings.ird(), this.settings.ord()) : null, data.bytes());
		try {
			MpaExchange.send(this.channel, reply, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
		}
		catch (IOException ex) {
			acceptor.enterError("accept failed: " + ex.getMessage(), null, null);
			throw new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
					"Sending the MPA Reply to " + this.remoteAddress + " failed: " + ex.getMessage());
		}
		this.mpa = negotiator.responderParameters(requestFrame, reply);
		this.peerIrd = (requestFrame.irdOrd() != null) ? requestFrame.irdOrd().ird() : this.settings.ord();
		acceptor.enterReadyToSend();
		startTransmitter();
		this.state.set(State.ESTABLISHED);
		emit(new ConnectionEvent(ConnectionEventType.ESTABLISHED, this.remotePrivateData,
				"connection from " + this.remoteAddress + " established"));
	}

	/**
	 * Rejects: sends the MPA Reply with R set and closes.
	 */
	void rejectWith(MpaFrame requestFrame, MpaNegotiator negotiator, PrivateData data) {
		try {
			MpaExchange.send(this.channel, negotiator.rejectReply(requestFrame, data.bytes()),
					System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
			this.channel.shutdownOutput();
		}
		catch (IOException ex) {
			logger.log(System.Logger.Level.DEBUG, "The rejected requester is gone: " + ex);
		}
	}

	void setRemotePrivateData(PrivateData data) {
		this.remotePrivateData = data;
	}

	// ---- common -----------------------------------------------------------------------

	private void configure(SocketChannel ch) throws IOException {
		ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
		ch.setOption(StandardSocketOptions.SO_KEEPALIVE, this.settings.keepAlive());
		if (this.settings.keepAlive()) {
			// Half-open detection: probe an idle peer after 30 s, give up after 3 unanswered
			// probes 5 s apart, instead of the kernel's default two hours.
			setIfSupported(ch, jdk.net.ExtendedSocketOptions.TCP_KEEPIDLE, 30);
			setIfSupported(ch, jdk.net.ExtendedSocketOptions.TCP_KEEPINTERVAL, 5);
			setIfSupported(ch, jdk.net.ExtendedSocketOptions.TCP_KEEPCOUNT, 3);
		}
	}

	private static void setIfSupported(SocketChannel ch, java.net.SocketOption<Integer> option, int value)
			throws IOException {
		if (ch.supportedOptions().contains(option)) {
			ch.setOption(option, value);
		}
	}

	private void startTransmitter() {
		int mss = this.settings.mss();
		if (mss == 0) {
			// The MSS Linux uses with TCP timestamps: a 64 KiB MTU on loopback, else Ethernet's
			// 1500, less the IP header (20 or 40 bytes), the TCP header and its 12-byte option.
			java.net.InetAddress peer = (this.remoteAddress != null) ? this.remoteAddress.getAddress() : null;
			boolean ipv6 = peer instanceof java.net.Inet6Address;
			int mtu = (peer != null && peer.isLoopbackAddress()) ? 65536 : 1500;
			mss = mtu - (ipv6 ? 40 : 20) - 20 - 12;
		}
		RdmapTransmitter tx = new RdmapTransmitter(this, this.qp, this.channel, this.mpa.crc(), Mpa.mulpdu(mss),
				new OutboundReadQueue(Math.max(1, Math.min(this.settings.ord(), this.peerIrd))),
				new InboundReadQueue(this.settings.ird()), this.io, this.provider.streamBuffers(),
				this.active ? this.settings.firstMessageNudge().toNanos() : 0);
		this.transmitter = tx;
		tx.start();
	}

	/**
	 * On the I/O thread, the connection established: its receive path starts, in turns of
	 * this thread, with what came after the MPA frame; callers may lead it from now on.
	 */
	private void startReceiving() {
		ByteBuffer early;
		synchronized (this) {
			early = this.in;
			this.in = null;
		}
		RdmapReceiver p = new RdmapReceiver(this, this.qp, this.channel, early, this.mpa.crc(), this.settings, this.io,
				this.provider.streamBuffers());
		this.path = p;
		if (this.settings.callerReceives()) {
			this.receiver = p;
		}
		if (early != null) {
			p.wake();
		}
		else {
			// Nothing to read yet: the first turn, and the receive buffer it borrows, wait
			// for the first bytes, so that a connection that stays idle never holds one.
			p.arm();
		}
	}

	OutboundReadQueue outboundReads() {
		return this.transmitter.outboundReads();
	}

	InboundReadQueue inboundReads() {
		return this.transmitter.inboundReads();
	}

	boolean isEstablished() {
		return this.state.get() == State.ESTABLISHED;
	}

	private static PrivateData privateDataOf(byte[] bytes) {
		return (bytes.length <= PrivateData.MAX_LENGTH) ? new PrivateData(bytes) : PrivateData.EMPTY;
	}

	/**
	 * The connection attempt ended without a connection.
	 */
	void connectFailed(ConnectionFailedException failure, PrivateData data) {
		if (!this.state.compareAndSet(State.CONNECTING, State.CLOSED)) {
			return;
		}
		closeChannel();
		SiwQueuePair q = this.qp;
		if (q != null && this.active) {
			q.enterError(failure.getMessage(), null, null);
		}
		this.provider.connectionClosed(this);
		try {
			if (this.active) {
				emit(new ConnectionEvent(failure.eventType(), data, failure.getMessage()));
			}
		}
		finally {
			this.established.completeExceptionally(failure);
		}
	}

	private void abandon() {
		this.state.compareAndSet(State.CONNECTING, State.CLOSED);
		closeChannel();
		this.provider.connectionClosed(this);
	}

	/**
	 * A local error: the stream ends with a Terminate reporting it.
	 */
	void failLocally(TerminateError error, String detail) {
		failWithTerminate(TerminateMessage.of(error), detail);
	}

	/**
	 * An error this end detected: Terminate, close, ERROR and DISCONNECTED.
	 */
	void failWithTerminate(TerminateMessage terminate, String detail) {
		if (!this.state.compareAndSet(State.ESTABLISHED, State.CLOSED)) {
			return;
		}
		this.qp.enterError(detail, null, null);
		this.transmitter.close(terminate);
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.ERROR, detail));
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "connection failed: " + detail));
	}

	/**
	 * The peer sent a Terminate (RFC 5040 §4.8): the oldest outstanding work request fails
	 * with the status its error means.
	 */
	void terminated(TerminateMessage terminate) {
		if (!this.state.compareAndSet(State.ESTABLISHED, State.CLOSED)) {
			return;
		}
		String detail = "the peer terminated the connection: " + terminate.error().map(Enum::name).orElse("error")
				+ " (layer " + terminate.layer() + ", type " + terminate.errorType() + ", code 0x"
				+ Integer.toHexString(terminate.errorCode()) + ")";
		this.qp.enterError(detail, statusFor(terminate), detail);
		this.transmitter.close(null);
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.ERROR, detail));
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "connection failed: " + detail));
	}

	/**
	 * The completion status a Terminate means for the work request it names: protection
	 * errors (RFC 5040 §7, RFC 5041 §7) are remote access errors, "no buffer" stands for
	 * receiver-not-ready, "message too long" for a receive too small.
	 * @param terminate the Terminate
	 * @return the status
	 */
	static CompletionStatus statusFor(TerminateMessage terminate) {
		int layer = terminate.layer();
		int type = terminate.errorType();
		if (layer == TerminateError.LAYER_RDMAP && type == 0x1) {
			return CompletionStatus.REM_ACCESS_ERR;
		}
		if (layer == TerminateError.LAYER_DDP && type == 0x1) {
			return CompletionStatus.REM_ACCESS_ERR;
		}
		if (layer == TerminateError.LAYER_DDP && type == 0x2) {
			if (terminate.errorCode() == TerminateError.DDP_UNTAGGED_INVALID_MSN_NO_BUFFER.errorCode()) {
				return CompletionStatus.RNR_RETRY_EXC_ERR;
			}
			if (terminate.errorCode() == TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG.errorCode()) {
				return CompletionStatus.REM_INV_REQ_ERR;
			}
		}
		return CompletionStatus.REM_OP_ERR;
	}

	/** The peer closed the TCP stream. */
	void peerClosed() {
		if (!this.state.compareAndSet(State.ESTABLISHED, State.CLOSED)) {
			return;
		}
		this.qp.enterError("disconnected by the peer", null, null);
		this.transmitter.close(null);
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "disconnected by the peer"));
	}

	/** The TCP connection failed (reset, keepalive timeout, I/O error). */
	void transportFailed(Throwable ex) {
		if (this.state.get() == State.CONNECTING) {
			if (this.active) {
				connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
						"Connecting failed: " + ex), PrivateData.EMPTY);
			}
			else {
				abandon();
			}
			return;
		}
		if (!this.state.compareAndSet(State.ESTABLISHED, State.CLOSED)) {
			return;
		}
		String detail = "the TCP connection failed: " + ex.getMessage();
		this.qp.enterError(detail, null, null);
		this.transmitter.close(null);
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.ERROR, detail));
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "connection failed: " + detail));
	}

	@Override
	public void disconnect() {
		State current = this.state.get();
		if (current == State.CONNECTING) {
			if (this.active) {
				connectFailed(new ConnectionFailedException(ConnectionEventType.CONNECT_ERROR,
						"The connection attempt to " + this.remoteAddress + " was abandoned locally"), PrivateData.EMPTY);
			}
			else {
				SiwConnectionRequest req = this.request;
				if (req != null) {
					req.expire();
				}
				abandon();
				SiwIoThread reader = this.requestReader;
				if (reader != null) {
					// Still waiting for its MPA Request: its place is given back now.
					reader.execute(() -> endRequestWait("nothing before it was closed locally"));
				}
			}
			return;
		}
		if (!this.state.compareAndSet(State.ESTABLISHED, State.CLOSED)) {
			return;
		}
		this.qp.enterError("disconnected locally", null, null);
		this.transmitter.close(null);
		this.provider.connectionClosed(this);
		emit(ConnectionEvent.of(ConnectionEventType.DISCONNECTED, "disconnected locally"));
	}

	/**
	 * Has the receive path look at the stream soon (writing failed, or the stream closed): it
	 * reads what the peer sent before, such as a Terminate explaining why, and the end.
	 */
	void wakeReceiver() {
		RdmapReceiver p = this.path;
		if (p != null) {
			p.wakeLeader();
			p.wake();
		}
	}

	/** For the receive role: has the I/O thread wait for the socket again. */
	private void wakeReceivePath() {
		RdmapReceiver p = this.path;
		if (p != null) {
			p.arm();
		}
	}

	private void turnReceivePath() {
		RdmapReceiver p = this.path;
		if (p != null) {
			p.wakeSoon();
		}
	}

	/** @return the established stream's receive path, or {@code null} before; for tests */
	RdmapReceiver receivePath() {
		return this.path;
	}

	/** A receive was posted on the queue pair: a Send that waits for one goes on. */
	void receivePosted() {
		RdmapReceiver p = this.path;
		if (p != null) {
			p.receivePosted();
		}
	}

	/** The I/O thread's periodic look at an idle connection: its receive buffer may go back. */
	void lookAtReceiver() {
		RdmapReceiver p = this.path;
		if (p != null) {
			p.look();
		}
	}

	// ---- callers running the receive path ---------------------------------------------------

	ReceiveRole receiveRole() {
		return this.receiveRole;
	}

	/**
	 * Work was posted on this connection's queue pair: a caller that will wait for it may run
	 * the receive path. Work nobody waits for needs nothing: whenever no caller leads, the
	 * I/O thread waits for the socket.
	 */
	void posted() {
		if (this.receiver == null) {
			return;
		}
		WaitingCaller caller = WaitingCaller.current();
		if (caller != null) {
			caller.posted(this);
		}
	}

	/** @return the leading callers' poll policy; callers lead only once the receive path runs */
	CallerSpin callerSpin() {
		RdmapReceiver path = this.receiver;
		if (path == null) {
			throw new IllegalStateException("No caller has led the receive path of " + this);
		}
		return path.callerSpin();
	}

	@Override
	public boolean receiveUntil(BooleanSupplier done, WaitingCaller caller) {
		RdmapReceiver path = this.receiver;
		if (path == null) {
			return false;
		}
		Thread current = Thread.currentThread();
		ReceiveRole.Outcome outcome = this.receiveRole.takeOrFollow(current);
		if (outcome == ReceiveRole.Outcome.FOLLOWING) {
			caller.following(this);
			if (done.getAsBoolean()) {
				// Delivered while it became a follower: nobody else will say so.
				caller.outcomeArrived();
			}
			return false;
		}
		if (outcome == ReceiveRole.Outcome.CLOSED) {
			return false;
		}
		RdmapReceiver.Pause pause = RdmapReceiver.Pause.ENDED;
		caller.leading(this);
		try {
			pause = path.driveForCaller(done);
		}
		finally {
			caller.leading(null);
			this.receiveRole.release(current);
		}
		if (pause != RdmapReceiver.Pause.STOPPED || path.needsReader()) {
			// A path left inside a frame (its deadline), waiting for a receive, or ended needs
			// a turn of the I/O thread even if no byte comes.
			path.wake();
		}
		if (pause == RdmapReceiver.Pause.ENDED) {
			path.closeCallerSelector();
		}
		return done.getAsBoolean();
	}

	@Override
	public void wakeLeader() {
		RdmapReceiver p = this.path;
		if (p != null) {
			p.wakeLeader();
		}
	}

	@Override
	public void followerDone() {
		this.receiveRole.followerDone();
	}

	void closeChannel() {
		SocketChannel ch = this.channel;
		if (ch != null) {
			try {
				ch.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
		ByteBuffer early;
		synchronized (this) {
			early = this.in;
			this.in = null;
		}
		if (early != null) {
			// Bytes that came with or after the MPA frame, kept for a receive path that will
			// not start now (a rejected request, an attempt that failed): the buffer goes back.
			this.provider.streamBuffers().give(early);
		}
		RdmapReceiver p = this.path;
		if (p != null) {
			this.receiveRole.close();
			p.wakeLeader();
			p.closeCallerSelector();
			p.wake();
		}
	}

	private void emit(ConnectionEvent event) {
		try {
			this.listener.onEvent(this, event);
		}
		catch (Throwable ex) {
			logger.log(System.Logger.Level.ERROR, "Connection event listener threw; listeners must handle their errors",
					ex);
		}
	}

	@Override
	public QueuePair queuePair() {
		return this.qp;
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.localAddress;
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.remoteAddress;
	}

	@Override
	public PrivateData remotePrivateData() {
		return this.remotePrivateData;
	}

	@Override
	public boolean isConnected() {
		return this.state.get() == State.ESTABLISHED;
	}

	@Override
	public String toString() {
		return "SiwConnection[" + this.localAddress + " -> " + this.remoteAddress + ", " + this.state.get() + "]";
	}

}
