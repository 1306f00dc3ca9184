package io.rpcrdma.verbs.siw;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.rpcrdma.verbs.siw.wire.CrcPolicy;
import io.rpcrdma.verbs.siw.wire.Fpdu;
import io.rpcrdma.verbs.siw.wire.FpduParser;
import io.rpcrdma.verbs.siw.wire.FpduWriter;
import io.rpcrdma.verbs.siw.wire.MpaCodec;
import io.rpcrdma.verbs.siw.wire.MpaFrame;
import io.rpcrdma.verbs.siw.wire.MpaIrdOrd;
import io.rpcrdma.verbs.siw.wire.MpaNegotiator;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;
import io.rpcrdma.verbs.siw.wire.ReadRequest;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;

/**
 * One end of an iWARP connection written by hand on a raw TCP socket: it completes the MPA
 * exchange (RFC 5044 §7, RFC 6581) and then sends whatever FPDUs a test wants, honest or not,
 * to a siw provider; it sees every FPDU the provider sends, Read Requests with their sink STags
 * included. For hostile-peer tests of the layers above the provider: the peer that learns a
 * server's STags from the wire and abuses them.
 * <p>
 * By default it behaves like an RNIC for what it does not script: it answers zero-length Read
 * Requests (the provider's fences, RFC 5040 §5.5) at once and Read Requests for memory it
 * {@linkplain #expose exposed}; other Read Requests wait in {@link #nextReadRequest()} for the
 * test to answer or ignore. Received Sends are reassembled into messages.
 */
public final class SiwWirePeer implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private final FpduWriter writer = new FpduWriter(false);

	private final FpduParser parser = new FpduParser(FpduParser.Config.of(false));

	private final Fpdu fpdu = new Fpdu();

	private final ByteBuffer received = ByteBuffer.allocate(256 << 10);

	private final ArrayDeque<ByteBuffer> messages = new ArrayDeque<>();

	private final ArrayDeque<ReadRequest> readRequests = new ArrayDeque<>();

	private final Map<Integer, Exposed> exposed = new HashMap<>();

	private ByteBuffer message = ByteBuffer.allocate(64 << 10);

	private int sendMsn = 1;

	private int readRequestMsn = 1;

	private TerminateMessage terminate;

	private boolean ended;

	private boolean answerExposedReads = true;

	private int zeroLengthReadRequests;

	private record Exposed(long address, byte[] data) {
	}

	private SiwWirePeer(Socket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
		this.out = socket.getOutputStream();
	}

	/**
	 * Connects and completes the MPA exchange as initiator, without private data.
	 * @param address where a siw listener listens
	 * @param deadline how long any read from the provider may take
	 * @return the connected peer
	 * @throws IOException if the provider refuses or does not answer
	 */
	public static SiwWirePeer connect(InetSocketAddress address, Duration deadline) throws IOException {
		Socket socket = new Socket();
		socket.setTcpNoDelay(true);
		socket.setSoTimeout((int) deadline.toMillis());
		socket.connect(address, (int) deadline.toMillis());
		SiwWirePeer peer = new SiwWirePeer(socket);
		MpaCodec codec = new MpaCodec();
		MpaNegotiator negotiator = new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED);
		peer.out.write(bytes(codec.encode(negotiator.request(MpaIrdOrd.of(16, 16), new byte[0]))));
		ByteBuffer reply = ByteBuffer.allocate(MpaCodec.HEADER_LENGTH + MpaCodec.MAX_PRIVATE_DATA_LENGTH);
		Optional<MpaFrame> frame = Optional.empty();
		while (frame.isEmpty()) {
			int b = peer.in.read();
			if (b < 0) {
				socket.close();
				throw new IOException("The provider closed the connection during the MPA exchange");
			}
			reply.put((byte) b).flip();
			frame = codec.decode(reply, MpaFrame.Kind.REPLY);
			reply.compact();
		}
		if (frame.get().reject()) {
			socket.close();
			throw new IOException("The provider rejected the MPA Request");
		}
		return peer;
	}

	/**
	 * Accepts one connection on a listening socket and answers its MPA Request as responder,
	 * without private data: a hand-written server for tests of clients.
	 * @param listener where the client connects
	 * @param deadline how long the client may take, and any later read from it
	 * @return the connected peer
	 * @throws IOException if nobody connects or the MPA Request is unacceptable
	 */
	public static SiwWirePeer accept(ServerSocket listener, Duration deadline) throws IOException {
		listener.setSoTimeout((int) deadline.toMillis());
		Socket socket = listener.accept();
		socket.setTcpNoDelay(true);
		socket.setSoTimeout((int) deadline.toMillis());
		SiwWirePeer peer = new SiwWirePeer(socket);
		MpaCodec codec = new MpaCodec();
		MpaNegotiator negotiator = new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED);
		ByteBuffer request = ByteBuffer.allocate(MpaCodec.HEADER_LENGTH + MpaCodec.MAX_PRIVATE_DATA_LENGTH);
		Optional<MpaFrame> frame = Optional.empty();
		while (frame.isEmpty()) {
			int b = peer.in.read();
			if (b < 0) {
				socket.close();
				throw new IOException("The client closed the connection during the MPA exchange");
			}
			request.put((byte) b).flip();
			frame = codec.decode(request, MpaFrame.Kind.REQUEST);
			request.compact();
		}
		MpaFrame reply = negotiator.acceptReply(frame.get(), frame.get().enhanced() ? MpaIrdOrd.of(16, 16) : null,
				new byte[0]);
		if (reply.crc()) {
			socket.close();
			throw new IOException("The client asks for MPA CRC, which this test peer does not speak");
		}
		peer.out.write(bytes(codec.encode(reply)));
		return peer;
	}

	/**
	 * Sends one untagged Send message (queue 0, the next MSN, RFC 5041 §5).
	 * @param payload the message, between position and limit
	 */
	public void send(ByteBuffer payload) throws IOException {
		sendUntagged(RdmapOpcode.SEND, 0, payload);
	}

	/**
	 * Sends one Send With Invalidate naming an STag of the provider's (RFC 5040 §6.10).
	 * @param payload the message
	 * @param stag the STag the provider is asked to invalidate
	 */
	public void sendWithInvalidate(ByteBuffer payload, int stag) throws IOException {
		sendUntagged(RdmapOpcode.SEND_WITH_INVALIDATE, stag, payload);
	}

	private void sendUntagged(RdmapOpcode opcode, int invalidateStag, ByteBuffer payload) throws IOException {
		ByteBuffer frame = ByteBuffer.allocate(payload.remaining() + 64);
		this.writer.writeUntagged(frame, true, opcode, invalidateStag, 0, this.sendMsn++, 0, payload, payload.position(),
				payload.remaining());
		write(frame);
	}

	/**
	 * Sends an RDMA Write of bytes to a tagged buffer of the provider's, in one segment.
	 * @param stag the target STag
	 * @param taggedOffset the target address
	 * @param data the bytes
	 */
	public void write(int stag, long taggedOffset, byte[] data) throws IOException {
		ByteBuffer frame = ByteBuffer.allocate(data.length + 64);
		this.writer.writeTagged(frame, true, RdmapOpcode.RDMA_WRITE, stag, taggedOffset, ByteBuffer.wrap(data), 0,
				data.length);
		write(frame);
	}

	/**
	 * Sends an RDMA Read Request for bytes of the provider's memory (RFC 5040 §4.4); its
	 * Response, if any, is read and dropped by the receive loop.
	 * @param sourceStag the provider's STag
	 * @param sourceOffset the provider's address
	 * @param size the number of bytes
	 */
	public void readRequest(int sourceStag, long sourceOffset, int size) throws IOException {
		ByteBuffer frame = ByteBuffer.allocate(128);
		this.writer.writeReadRequest(frame, this.readRequestMsn++,
				new ReadRequest(0x5157_0001, 0, size, sourceStag, sourceOffset));
		write(frame);
	}

	/**
	 * Sends raw bytes, as they are: for framing attacks.
	 * @param bytes the bytes
	 */
	public void writeRaw(byte[] bytes) throws IOException {
		this.out.write(bytes);
	}

	/**
	 * Makes Read Requests for {@code [address, address + data.length)} under {@code stag} be
	 * answered with {@code data}, like memory this side registered and advertised.
	 * @param stag the STag this side advertises
	 * @param address the address it advertises
	 * @param data the bytes
	 */
	public void expose(int stag, long address, byte[] data) {
		this.exposed.put(stag, new Exposed(address, data.clone()));
	}

	/**
	 * Stops answering Read Requests for exposed memory: they wait in
	 * {@link #nextReadRequest()} from now on, unanswered unless the test answers them.
	 */
	public void stopAnsweringReads() {
		this.answerExposedReads = false;
	}

	/**
	 * Reads what the provider has sent so far and leaves it unparsed until more arrives, as
	 * Linux's siw (Debian's 6.1 kernel) does with FPDUs that reach its socket before its
	 * receive upcall is installed: they wait for the next segment's upcall.
	 * @throws IOException if nothing arrives within the deadline
	 */
	public void holdFirstArrival() throws IOException {
		int n;
		try {
			n = this.in.read(this.received.array(), this.received.position(), this.received.remaining());
		}
		catch (SocketTimeoutException ex) {
			throw new IOException("Nothing arrived from the provider within the deadline", ex);
		}
		if (n < 0) {
			throw new IOException("The provider closed the connection");
		}
		this.received.position(this.received.position() + n);
	}

	/** @return the zero-length Read Requests the provider sent so far (all answered at once) */
	public int zeroLengthReadRequests() {
		return this.zeroLengthReadRequests;
	}

	/**
	 * The next Read Request of non-zero size the provider sent and this peer did not answer.
	 * @return the request; its sink STag is the provider's local memory
	 * @throws IOException if the connection ended or nothing came within the deadline
	 */
	public ReadRequest nextReadRequest() throws IOException {
		while (this.readRequests.isEmpty()) {
			pump();
		}
		return this.readRequests.pollFirst();
	}

	/**
	 * Answers a Read Request from exposed memory, or with zeros if nothing is exposed there.
	 * @param request the request
	 */
	public void answer(ReadRequest request) throws IOException {
		byte[] data = new byte[request.size()];
		Exposed memory = this.exposed.get(request.sourceStag());
		if (memory != null) {
			int offset = (int) (request.sourceTaggedOffset() - memory.address());
			System.arraycopy(memory.data(), offset, data, 0, Math.min(data.length, memory.data().length - offset));
		}
		respond(request, data);
	}

	private void respond(ReadRequest request, byte[] data) throws IOException {
		int segment = 60 << 10;
		int sent = 0;
		do {
			int length = Math.min(segment, data.length - sent);
			ByteBuffer frame = ByteBuffer.allocate(length + 64);
			this.writer.writeTagged(frame, sent + length == data.length, RdmapOpcode.RDMA_READ_RESPONSE,
					request.sinkStag(), request.sinkTaggedOffset() + sent, ByteBuffer.wrap(data), sent, length);
			write(frame);
			sent += length;
		}
		while (sent < data.length);
	}

	/**
	 * The next Send message the provider delivered, whole.
	 * @return the message
	 * @throws IOException if the connection ended or nothing came within the deadline
	 */
	public ByteBuffer nextMessage() throws IOException {
		while (this.messages.isEmpty()) {
			pump();
		}
		return this.messages.pollFirst();
	}

	/**
	 * Reads until the provider closes the connection.
	 * @return the Terminate it sent before closing, or {@code null} if it sent none
	 * @throws IOException if the connection is still open after the deadline
	 */
	public TerminateMessage awaitEnd() throws IOException {
		while (!this.ended) {
			pump();
		}
		return this.terminate;
	}

	/** @return whether the provider closed the connection (as far as read so far) */
	public boolean ended() {
		return this.ended;
	}

	private void pump() throws IOException {
		if (this.ended) {
			throw new IOException("The provider closed the connection" + ((this.terminate != null)
					? " after a Terminate: " + this.terminate : ""));
		}
		int n;
		try {
			n = this.in.read(this.received.array(), this.received.position(), this.received.remaining());
		}
		catch (SocketTimeoutException ex) {
			throw new IOException("Nothing arrived from the provider within the deadline", ex);
		}
		catch (IOException ex) {
			// A reset after a Terminate is an end like any other.
			n = -1;
		}
		if (n < 0) {
			this.ended = true;
			this.received.flip();
			parseAll();
			this.received.clear();
			return;
		}
		this.received.position(this.received.position() + n).flip();
		parseAll();
		this.received.compact();
	}

	private void parseAll() throws IOException {
		while (this.parser.next(this.received, this.fpdu)) {
			RdmapOpcode opcode = this.fpdu.opcode();
			if (opcode == RdmapOpcode.TERMINATE) {
				this.terminate = this.fpdu.terminate();
			}
			else if (opcode == RdmapOpcode.RDMA_READ_REQUEST) {
				onReadRequest(this.fpdu.readRequest());
			}
			else if (opcode == RdmapOpcode.SEND || opcode == RdmapOpcode.SEND_WITH_INVALIDATE
					|| opcode == RdmapOpcode.SEND_WITH_SE || opcode == RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE) {
				onSendSegment();
			}
			// Read Responses and RDMA Writes to this side's memory are not kept.
		}
	}

	private void onReadRequest(ReadRequest request) throws IOException {
		if (this.ended) {
			return;
		}
		Exposed memory = this.exposed.get(request.sourceStag());
		if (request.size() == 0) {
			this.zeroLengthReadRequests++;
			answer(request);
		}
		else if (memory != null && this.answerExposedReads) {
			answer(request);
		}
		else {
			this.readRequests.addLast(request);
		}
	}

	private void onSendSegment() {
		ByteBuffer payload = this.fpdu.payload();
		int end = this.fpdu.messageOffset() + payload.remaining();
		if (end > this.message.capacity()) {
			this.message = ByteBuffer.allocate(Math.max(end, 2 * this.message.capacity())).put(this.message.flip());
		}
		this.message.put(this.fpdu.messageOffset(), payload, payload.position(), payload.remaining());
		this.message.position(Math.max(this.message.position(), end));
		if (this.fpdu.last()) {
			byte[] whole = Arrays.copyOf(this.message.array(), this.message.position());
			this.messages.addLast(ByteBuffer.wrap(whole));
			this.message.clear();
		}
	}

	private void write(ByteBuffer frame) throws IOException {
		this.out.write(frame.array(), 0, frame.position());
	}

	private static byte[] bytes(ByteBuffer buffer) {
		return Arrays.copyOfRange(buffer.array(), buffer.arrayOffset() + buffer.position(),
				buffer.arrayOffset() + buffer.limit());
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
