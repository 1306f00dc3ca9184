package io.rpcrdma.verbs.siw;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Optional;

import io.rpcrdma.verbs.siw.wire.MpaCodec;
import io.rpcrdma.verbs.siw.wire.MpaFrame;

/**
 * Moves MPA Request and Reply frames (RFC 5044 §7.1, RFC 6581 §7.1) over a non-blocking
 * socket, with a deadline: the start of a connection, before any FPDU. Bytes that follow
 * the frame stay in the receive buffer for the FPDU parser.
 */
final class MpaExchange {

	/** The most MPA private data accepted from a peer: RFC 5044's 512 bytes. */
	static final MpaCodec CODEC = new MpaCodec(MpaCodec.MAX_PRIVATE_DATA_LENGTH);

	private MpaExchange() {
	}

	/**
	 * Writes a frame completely.
	 */
	static void send(SocketChannel channel, Selector selector, MpaFrame frame, long deadlineNanos) throws IOException {
		ByteBuffer bytes = CODEC.encode(frame);
		while (bytes.hasRemaining()) {
			if (channel.write(bytes) == 0) {
				await(channel, selector, SelectionKey.OP_WRITE, deadlineNanos);
			}
		}
	}

	/**
	 * Reads one frame of the expected kind.
	 * @param in the connection's receive buffer, in fill mode; left in fill mode holding what
	 * followed the frame
	 * @throws SocketTimeoutException when the deadline passes
	 * @throws EOFException when the peer closes first
	 * @throws io.rpcrdma.verbs.siw.wire.MpaFrameException when the bytes are not a valid frame
	 */
	static MpaFrame receive(SocketChannel channel, Selector selector, ByteBuffer in, MpaFrame.Kind kind,
			long deadlineNanos) throws IOException {
		while (true) {
			in.flip();
			Optional<MpaFrame> frame;
			try {
				frame = CODEC.decode(in, kind);
			}
			finally {
				in.compact();
			}
			if (frame.isPresent()) {
				return frame.get();
			}
			int n = channel.read(in);
			if (n < 0) {
				throw new EOFException("the peer closed the TCP connection during the MPA exchange");
			}
			if (n == 0) {
				await(channel, selector, SelectionKey.OP_READ, deadlineNanos);
			}
		}
	}

	static void await(SocketChannel channel, Selector selector, int ops, long deadlineNanos) throws IOException {
		long left = deadlineNanos - System.nanoTime();
		if (left <= 0) {
			throw new SocketTimeoutException("the MPA exchange did not complete in time");
		}
		SelectionKey key = channel.keyFor(selector);
		key.interestOps(ops);
		selector.select(Math.max(1, left / 1_000_000));
		selector.selectedKeys().clear();
	}

}
