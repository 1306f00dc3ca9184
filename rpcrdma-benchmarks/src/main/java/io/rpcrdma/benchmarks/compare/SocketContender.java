package io.rpcrdma.benchmarks.compare;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * The floor: blocking {@link Socket}s with TCP_NODELAY, one connection and one server thread
 * per client thread ({@link SocketServer}, whose protocol this speaks), a request/response
 * protocol of a few ints and the payload. Nothing a real RPC system has (framing of many calls
 * on one connection, headers, dispatch) is paid.
 */
final class SocketContender implements Contender {

	private final byte[] source = Payloads.filled(BenchService.MAX_BULK);

	private final SocketServer server;

	SocketContender() throws IOException {
		this.server = new SocketServer(this.source);
	}

	@Override
	public String name() {
		return "socket";
	}

	@Override
	public Session openSession() throws IOException {
		Socket socket = new Socket();
		socket.setTcpNoDelay(true);
		socket.connect(this.server.address());
		return new SocketSession(socket, this.source);
	}

	@Override
	public void close() throws Exception {
		this.server.close();
	}

	private static final class SocketSession implements Session {

		private final Socket socket;

		private final DataInputStream in;

		private final DataOutputStream out;

		private final byte[] source;

		private final byte[] sink = new byte[SocketServer.STREAM_BUFFER];

		SocketSession(Socket socket, byte[] source) throws IOException {
			this.socket = socket;
			this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), SocketServer.STREAM_BUFFER));
			this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), SocketServer.STREAM_BUFFER));
			this.source = source;
		}

		@Override
		public void echo(byte[] request) throws Exception {
			this.out.writeInt(SocketServer.ECHO);
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
			this.out.writeInt(SocketServer.PUT);
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
			this.out.writeInt(SocketServer.GET);
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
