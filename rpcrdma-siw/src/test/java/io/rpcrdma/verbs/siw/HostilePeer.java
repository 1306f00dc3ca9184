package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.siw.wire.CrcPolicy;
import io.rpcrdma.verbs.siw.wire.Fpdu;
import io.rpcrdma.verbs.siw.wire.FpduParser;
import io.rpcrdma.verbs.siw.wire.FpduWriter;
import io.rpcrdma.verbs.siw.wire.Mpa;
import io.rpcrdma.verbs.siw.wire.MpaCodec;
import io.rpcrdma.verbs.siw.wire.MpaFrame;
import io.rpcrdma.verbs.siw.wire.MpaIrdOrd;
import io.rpcrdma.verbs.siw.wire.MpaNegotiator;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;
import io.rpcrdma.verbs.siw.wire.ReadRequest;
import io.rpcrdma.verbs.siw.wire.TerminateError;
import io.rpcrdma.verbs.siw.wire.TerminateMessage;

/**
 * A raw TCP peer of a {@code siw} listener that speaks just enough MPA to be accepted (an
 * MPA Request without CRC, IRD and ORD 4) and then sends whatever bytes a test makes: valid
 * FPDUs, broken ones, or part of one and then nothing. It reads what the provider sends one
 * byte at a time, so it never takes more than the FPDU it waits for.
 * <p>
 * For the provider's own tests and for transport tests that need a peer breaking the wire
 * rules under a real RPC-over-RDMA endpoint.
 */
public final class HostilePeer implements AutoCloseable {

	/** Builds one FPDU into a buffer. */
	@FunctionalInterface
	public interface FpduBuilder {

		/**
		 * @param writer a writer without CRC
		 * @param out where the FPDU goes
		 */
		void write(FpduWriter writer, ByteBuffer out);

	}

	private final Socket socket;

	private final InputStream in;

	private final FpduParser parser = new FpduParser(FpduParser.Config.of(false));

	private final Fpdu fpdu = new Fpdu();

	private final ByteBuffer received = ByteBuffer.allocate(2 * Mpa.fpduLength(Mpa.MAX_ULPDU_LENGTH));

	private final FpduWriter writer = new FpduWriter(false);

	private int sendMsn = 1;

	private HostilePeer(Socket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
	}

	/**
	 * Connects to a listener and completes the MPA exchange; reads time out after 10 s.
	 * @param listener the provider's listener
	 * @return the peer, its connection accepted
	 * @throws IOException if the connection fails
	 */
	public static HostilePeer connect(RdmaListener listener) throws IOException {
		return connect(listener.localAddress(), Duration.ofSeconds(10), 0);
	}

	/**
	 * Connects with a small receive buffer, so that the provider cannot send much more than the
	 * peer takes; reads time out after 10 s.
	 * @param listener the provider's listener
	 * @param receiveBuffer the socket's receive buffer size, or 0 for the system's
	 * @return the peer, its connection accepted
	 * @throws IOException if the connection fails
	 */
	public static HostilePeer connect(RdmaListener listener, int receiveBuffer) throws IOException {
		return connect(listener.localAddress(), Duration.ofSeconds(10), receiveBuffer);
	}

	/**
	 * Connects and completes the MPA exchange.
	 * @param address where a {@code siw} listener listens
	 * @param readTimeout how long any read of the provider's bytes may wait
	 * @return the peer, its connection accepted
	 * @throws IOException if the connection fails or a read times out
	 */
	public static HostilePeer connect(InetSocketAddress address, Duration readTimeout) throws IOException {
		return connect(address, readTimeout, 0);
	}

	/**
	 * Connects and completes the MPA exchange.
	 * @param address where a {@code siw} listener listens
	 * @param readTimeout how long any read of the provider's bytes may wait
	 * @param receiveBuffer the socket's receive buffer size, or 0 for the system's
	 * @return the peer, its connection accepted
	 * @throws IOException if the connection fails or a read times out
	 */
	public static HostilePeer connect(InetSocketAddress address, Duration readTimeout, int receiveBuffer)
			throws IOException {
		Socket socket = new Socket();
		if (receiveBuffer > 0) {
			socket.setReceiveBufferSize(receiveBuffer);
		}
		socket.setTcpNoDelay(true);
		socket.setSoTimeout((int) readTimeout.toMillis());
		socket.connect(address);
		HostilePeer peer = new HostilePeer(socket);
		MpaCodec codec = new MpaCodec();
		MpaNegotiator negotiator = new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED);
		peer.write(codec.encode(negotiator.request(MpaIrdOrd.of(4, 4), new byte[0])).array());
		ByteBuffer reply = ByteBuffer.allocate(MpaCodec.HEADER_LENGTH + 512);
		Optional<MpaFrame> frame = Optional.empty();
		while (frame.isEmpty()) {
			int b = peer.in.read();
			assertThat(b).as("MPA Reply byte").isNotNegative();
			reply.put((byte) b);
			reply.flip();
			frame = codec.decode(reply, MpaFrame.Kind.REPLY);
			reply.compact();
		}
		assertThat(frame.get().reject()).isFalse();
		return peer;
	}

	/** @return the TCP socket, to shut down or close a direction */
	public Socket socket() {
		return this.socket;
	}

	/** @return the socket's input, to read the provider's bytes in bulk */
	public InputStream input() {
		return this.in;
	}

	/**
	 * Builds one small FPDU (without CRC).
	 * @param builder writes it
	 * @return its bytes, exactly: the buffer's array holds nothing else
	 */
	public ByteBuffer fpdu(FpduBuilder builder) {
		ByteBuffer out = fpdu(0, builder);
		return ByteBuffer.wrap(Arrays.copyOf(out.array(), out.position()));
	}

	/**
	 * Builds one FPDU (without CRC) with room for a payload.
	 * @param payload the payload's length
	 * @param builder writes it
	 * @return a buffer whose array holds the FPDU from 0 to the position
	 */
	public ByteBuffer fpdu(int payload, FpduBuilder builder) {
		ByteBuffer out = ByteBuffer.allocate(256 + payload);
		builder.write(this.writer, out);
		return out;
	}

	/**
	 * A tagged FPDU of one segment.
	 * @param last the L flag
	 * @param opcode RDMA Write or Read Response
	 * @param stag the data sink STag
	 * @param taggedOffset the segment's tagged offset
	 * @param payload its payload, all of it
	 * @return its bytes
	 */
	public byte[] tagged(boolean last, RdmapOpcode opcode, int stag, long taggedOffset, byte[] payload) {
		ByteBuffer out = fpdu(payload.length, (w, o) -> w.writeTagged(o, last, opcode, stag, taggedOffset,
				ByteBuffer.wrap(payload), 0, payload.length));
		return Arrays.copyOf(out.array(), out.position());
	}

	/**
	 * A one-segment Send with the next MSN of queue 0.
	 * @param payload its payload
	 * @return its bytes
	 */
	public byte[] send(byte[] payload) {
		int msn = this.sendMsn++;
		ByteBuffer out = fpdu(payload.length, (w, o) -> w.writeUntagged(o, true, RdmapOpcode.SEND, 0, 0, msn, 0,
				ByteBuffer.wrap(payload), 0, payload.length));
		return Arrays.copyOf(out.array(), out.position());
	}

	/**
	 * Sends bytes.
	 * @param bytes what to send
	 * @throws IOException if the socket fails
	 */
	public void write(byte[] bytes) throws IOException {
		this.socket.getOutputStream().write(bytes);
	}

	/**
	 * Sends part of some bytes.
	 * @param bytes where they are
	 * @param from the first byte to send
	 * @param to the byte after the last one to send
	 * @throws IOException if the socket fails
	 */
	public void write(byte[] bytes, int from, int to) throws IOException {
		this.socket.getOutputStream().write(bytes, from, to - from);
	}

	/**
	 * Reads what the provider sends until a Read Request arrives.
	 * @return the Read Request
	 * @throws IOException if the socket fails, times out or ends first
	 */
	public ReadRequest awaitReadRequest() throws IOException {
		return await(RdmapOpcode.RDMA_READ_REQUEST, false).readRequest();
	}

	/**
	 * Reads what the provider sends until the last segment of a message with the opcode
	 * arrives. Zero-length Read Requests met on the way (the provider's fences, which complete
	 * its Sends) are answered with empty Read Responses if asked.
	 * @param opcode what to wait for
	 * @param answerFences whether to answer fences
	 * @return the FPDU, a view valid until the next read
	 * @throws IOException if the socket fails, times out or ends first
	 */
	public Fpdu await(RdmapOpcode opcode, boolean answerFences) throws IOException {
		while (true) {
			this.received.clear();
			do {
				int b = this.in.read();
				assertThat(b).as("the provider's next byte").isNotNegative();
				this.received.put((byte) b).flip();
				boolean complete = this.parser.next(this.received, this.fpdu);
				this.received.position(this.received.limit()).limit(this.received.capacity());
				if (complete) {
					break;
				}
			}
			while (true);
			Fpdu f = this.fpdu;
			if (f.opcode() == opcode && f.last()) {
				return f;
			}
			if (answerFences && f.opcode() == RdmapOpcode.RDMA_READ_REQUEST && f.readSize() == 0) {
				int sink = f.readSinkStag();
				long offset = f.readSinkTaggedOffset();
				write(tagged(true, RdmapOpcode.RDMA_READ_RESPONSE, sink, offset, new byte[0]));
			}
		}
	}

	/**
	 * Reads until the provider closes: it must have sent one Terminate with the error.
	 * @param error the error expected
	 * @return the Terminate
	 * @throws IOException if the socket fails or the read times out
	 */
	public TerminateMessage assertTerminatedWith(TerminateError error) throws IOException {
		byte[] all = this.in.readAllBytes();
		ByteBuffer rest = ByteBuffer.wrap(all);
		FpduParser tail = new FpduParser(FpduParser.Config.of(false));
		Fpdu f = new Fpdu();
		TerminateMessage terminate = null;
		while (tail.next(rest, f)) {
			if (f.opcode() == RdmapOpcode.TERMINATE) {
				assertThat(f.queueNumber()).as("Terminate queue (RFC 5040 §4.8)").isEqualTo(2);
				assertThat(f.msn()).as("Terminate MSN").isEqualTo(1);
				terminate = f.terminate();
			}
		}
		assertThat(rest.hasRemaining()).as("bytes after the last FPDU").isFalse();
		assertThat(terminate).as("a Terminate before the connection closed").isNotNull();
		assertThat(terminate.error()).as("Terminate %s", terminate).contains(error);
		return terminate;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
