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
 * The floor: blocking {@link Socket}s with TCP_NODELAY, one connection and one server thread
 * per client thread, a request/response protocol of a few ints and the payload. Nothing a
 * real RPC system has (framing of many calls on one connection, headers, dispatch) is paid.
 * <p>
 * Request: {@code int op, int length, payload (echo and put)}; reply: {@code int length,
 * payload (echo and get)}.
 */
final class SocketContender implements Contender {

	private static final int ECHO = 1;

	private static final int PUT = 2;

	private static final int GET = 3;

	private static final int STREAM_BUFFER = 64 << 10;

	private final ServerSocket listener;

	private final Thread acceptor;

	private final Set<Socket> accepted = ConcurrentHashMap.newKeySet();

	private final byte[] source = Payloads.filled(BenchService.MAX_BULK);

	SocketContender() throws IOException {
		this.listener = new ServerSocket();
		this.listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
		this.acceptor = new Thread(this::accept, "socket-bench-accept");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	@Override
	public String name() {
		return "socket";
	}

	@Override
	public Session openSession() throws IOException {
		Socket socket = new Socket();
		socket.setTcpNoDelay(true);
		socket.connect(this.listener.getLocalSocketAddress());
		return new SocketSession(socket, this.source);
	}

	@Override
	public void close() throws Exception {
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
				server.start();
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

	private static final class SocketSession implements Session {

		private final Socket socket;

		private final DataInputStream in;

		private final DataOutputStream out;

		private final byte[] source;

		private final byte[] sink = new byte[STREAM_BUFFER];

		SocketSession(Socket socket, byte[] source) throws IOException {
			this.socket = socket;
			this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), STREAM_BUFFER));
			this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), STREAM_BUFFER));
			this.source = source;
		}

		@Override
		public void echo(byte[] request) throws Exception {
			this.out.writeInt(ECHO);
			this.out.writeInt(request.length);
			this.out.write(request);
			this.out.flush();
			int length = this.in.readInt();
			if (length != request.length) {
				throw new UnexpectedReplyException("socket", length + " bytes echoed for " + request.length);
			}
			this.in.readFully(this.sink, 0, length);
		}

		@Override
		public void put(int length) throws Exception {
			this.out.writeInt(PUT);
			this.out.writeInt(length);
			this.out.write(this.source, 0, length);
			this.out.flush();
			int received = this.in.readInt();
			if (received != length) {
				throw new UnexpectedReplyException("socket", received + " bytes acknowledged for " + length);
			}
		}

		@Override
		public void get(int length) throws Exception {
			this.out.writeInt(GET);
			this.out.writeInt(length);
			this.out.flush();
			int sent = this.in.readInt();
			if (sent != length) {
				throw new UnexpectedReplyException("socket", sent + " bytes sent for " + length);
			}
			for (int left = length; left > 0;) {
				int n = Math.min(left, this.sink.length);
				this.in.readFully(this.sink, 0, n);
				left -= n;
			}
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
