package io.rpcrdma.verbs.siw;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import io.rpcrdma.verbs.ConnectionRequestHandler;
import io.rpcrdma.verbs.RdmaException;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.support.UnansweredRequests;

/**
 * A listening TCP socket; each accepted TCP connection gets its own thread, which reads
 * the MPA Request and hands a {@link SiwConnectionRequest} to the handler. While the
 * provider already has {@link SiwSettings#maxQueuePairs()} accepted connections waiting for
 * their MPA Request or its answer, a new one is closed at once, unread and without a thread
 * (see {@link PendingPassiveConnections}).
 */
final class SiwListener implements RdmaListener, Runnable {

	private static final System.Logger logger = System.getLogger(SiwListener.class.getName());

	private final SiwProvider provider;

	private final ConnectionRequestHandler handler;

	private final ServerSocketChannel server;

	private final InetSocketAddress address;

	private volatile boolean closed;

	private final UnansweredRequests<SiwConnectionRequest> unanswered = new UnansweredRequests<>(
			SiwConnectionRequest::rejectQuietly);

	SiwListener(SiwProvider provider, ConnectionRequestHandler handler, InetSocketAddress requested) {
		this.provider = provider;
		this.handler = handler;
		if (requested.isUnresolved()) {
			throw new IllegalArgumentException("Cannot listen on unresolved address " + requested
					+ "; give an IP address or a resolvable host name");
		}
		try {
			this.server = ServerSocketChannel.open();
		}
		catch (IOException ex) {
			throw new RdmaException("Cannot open a TCP listening socket: " + ex.getMessage(), ex);
		}
		try {
			this.server.bind(requested, 128);
			this.address = (InetSocketAddress) this.server.getLocalAddress();
		}
		catch (IOException ex) {
			try {
				this.server.close();
			}
			catch (IOException ignored) {
				// closing anyway
			}
			throw new RdmaException("Cannot listen on " + requested + ": " + ex.getMessage()
					+ "; pick another port or stop whatever listens there", ex);
		}
		Thread thread = new Thread(this, "siw-listen-" + this.address.getPort());
		thread.setDaemon(true);
		thread.start();
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.address;
	}

	SiwProvider provider() {
		return this.provider;
	}

	@Override
	public void run() {
		while (!this.closed) {
			SocketChannel channel;
			try {
				channel = this.server.accept();
			}
			catch (IOException ex) {
				if (!this.closed) {
					logger.log(System.Logger.Level.ERROR, "Listening socket " + this.address + " failed", ex);
				}
				return;
			}
			if (!this.provider.startPassive(channel, this)) {
				// Closed before a byte is read, so it costs no thread: the peer sees the stream
				// end before any MPA Reply (RFC 5044 §7.1.2) and its connect fails.
				try {
					channel.close();
				}
				catch (IOException ex) {
					// dropping it
				}
			}
		}
	}

	void deliver(SiwConnectionRequest request) {
		if (!this.unanswered.admit(request)) {
			return;
		}
		try {
			this.handler.onConnectionRequest(request);
		}
		catch (Throwable ex) {
			logger.log(System.Logger.Level.ERROR, "Connection request handler threw; rejecting the request", ex);
			request.rejectQuietly();
		}
	}

	void answered(SiwConnectionRequest request) {
		this.unanswered.answered(request);
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closed anyway
		}
		this.unanswered.close();
		this.provider.listenerClosed(this);
	}

}
