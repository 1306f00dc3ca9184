package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * Idle connections of the socket contender: plain TCP sockets to a {@link SocketServer}, as its
 * sessions have them, that never send.
 */
final class IdleSocketConnector implements IdleConnector {

	private static final int CONNECT_TIMEOUT_MILLIS = (int) TimeUnit.SECONDS.toMillis(10);

	private final InetSocketAddress server;

	IdleSocketConnector(InetSocketAddress server) {
		this.server = server;
	}

	@Override
	public AutoCloseable open() throws IOException {
		Socket socket = new Socket();
		try {
			socket.setTcpNoDelay(true);
			socket.connect(this.server, CONNECT_TIMEOUT_MILLIS);
			return socket;
		}
		catch (IOException refused) {
			socket.close();
			throw refused;
		}
	}

	@Override
	public long registeredBytes() {
		return -1;
	}

	@Override
	public void close() {
		// Nothing shared: each socket closes on its own.
	}

}
