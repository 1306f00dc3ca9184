package io.rpcrdma.benchmarks.compare;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server of {@link SocketContender}: blocking {@link Socket}s with TCP_NODELAY on
 * 127.0.0.1, one server thread per accepted connection, in the comparison's JVM or, through
 * {@link CompareServer#main}, in a process of its own ({@link ServerProcess}) for
 * {@link Growth}'s idle connections.
 * <p>
 * Request: {@code int op, int length, payload (echo and put)}; reply: {@code int length,
 * payload (echo and get)}.
 */
final class SocketServer implements AutoCloseable {

	static final int ECHO = 1;

	static final int PUT = 2;

	static final int GET = 3;

	static final int STREAM_BUFFER = 64 << 10;

	private final ServerSocket listener;

	private final Thread acceptor;

	/** Connections accepted and not closed: what {@link #connections()} counts. */
	private final Set<Socket> accepted = ConcurrentHashMap.newKeySet();

	private final byte[] source;

	/**
	 * Listens on an ephemeral port of the loopback address.
	 * @param source the bytes {@code get} sends, at least {@link BenchService#MAX_BULK}
	 * @throws IOException if it cannot listen
	 */
	SocketServer(byte[] source) throws IOException {
		this.source = source;
		this.listener = new ServerSocket();
		this.listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
		this.acceptor = new Thread(this::accept, "socket-bench-accept");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/** @return where clients connect */
	InetSocketAddress address() {
		return (InetSocketAddress) this.listener.getLocalSocketAddress();
	}

	/** @return connections accepted and not yet closed */
	int connections() {
		return this.accepted.size();
	}

	@Override
	public void close() throws InterruptedException, IOException {
		this.listener.close();
		for (Socket socket : this.accepted) {
			socket.close();
		}
		this.acceptor.join(5_000);
	}

	private void accept() {
		try {
			while (true) {
				Socket socket = this.listener.accept();
				socket.setTcpNoDelay(true);
				this.accepted.add(socket);
				Thread server = new Thread(() -> serve(socket), "socket-bench-server");
				server.setDaemon(true);
				try {
					server.start();
				}
				catch (OutOfMemoryError noThread) {
					// The machine has no thread left for one more connection (Growth's idle curve
					// gets there): this one is closed and counted no more, the others go on, and
					// the step that asked for it does not settle.
					this.accepted.remove(socket);
					socket.close();
					System.err.println("socket server: no thread for connection " + (this.accepted.size() + 1)
							+ ", closed it: " + noThread.getMessage());
				}
			}
		}
		catch (IOException closed) {
			// The listener was closed: the contender is shutting down.
		}
	}

	private void serve(Socket socket) {
		try (socket;
				DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), STREAM_BUFFER));
				DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), STREAM_BUFFER))) {
			byte[] sink = new byte[STREAM_BUFFER];
			while (true) {
				int op;
				try {
					op = in.readInt();
				}
				catch (EOFException closed) {
					return;
				}
				int length = in.readInt();
				if (length < 0 || length > BenchService.MAX_BULK) {
					return;
				}
				switch (op) {
					case ECHO -> {
						if (length > sink.length) {
							return;
						}
						in.readFully(sink, 0, length);
						out.writeInt(length);
						out.write(sink, 0, length);
					}
					case PUT -> {
						for (int left = length; left > 0;) {
							int n = Math.min(left, sink.length);
							in.readFully(sink, 0, n);
							left -= n;
						}
						out.writeInt(length);
					}
					case GET -> {
						out.writeInt(length);
						out.write(this.source, 0, length);
					}
					default -> {
						return;
					}
				}
				out.flush();
			}
		}
		catch (SocketException closed) {
			// The client or the contender closed the connection.
		}
		catch (IOException failed) {
			System.err.println("socket server: " + failed);
		}
		finally {
			this.accepted.remove(socket);
		}
	}

}
