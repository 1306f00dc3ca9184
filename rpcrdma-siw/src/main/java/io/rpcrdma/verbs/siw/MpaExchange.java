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
 * Writes MPA Request and Reply frames (RFC 5044 §7.1, RFC 6581 §7.1) to a non-blocking
 * socket, with a deadline: the start of a connection, before any FPDU. Frames are read
 * incrementally on the connection's I/O thread ({@link SiwConnection}).
 */
final class MpaExchange {

	/** The most MPA private data accepted from a peer: RFC 5044's 512 bytes. */
	static final MpaCodec CODEC = new MpaCodec(MpaCodec.MAX_PRIVATE_DATA_LENGTH);

	private MpaExchange() {
	}

	/**
	 * Writes a frame completely. A frame is at most 532 bytes, which a new connection's
	 * socket takes at once; only if it does not is a selector opened to wait for room.
	 */
	static void send(SocketChannel channel, MpaFrame frame, long deadlineNanos) throws IOException {
		ByteBuffer bytes = CODEC.encode(frame);
		channel.write(bytes);
		if (!bytes.hasRemaining()) {
			return;
		}
		try (Selector selector = Selector.open()) {
			channel.register(selector, SelectionKey.OP_WRITE);
			while (bytes.hasRemaining()) {
				if (channel.write(bytes) == 0) {
					await(channel, selector, SelectionKey.OP_WRITE, deadlineNanos);
				}
			}
		}
	}

	private static void await(SocketChannel channel, Selector selector, int ops, long deadlineNanos) throws IOException {
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
