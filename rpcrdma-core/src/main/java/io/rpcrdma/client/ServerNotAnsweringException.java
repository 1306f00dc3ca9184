package io.rpcrdma.client;

import io.rpcrdma.transport.TransportClosedException;

/**
 * Why a pool closed a connection that was up but whose server had stopped answering: several
 * calls in a row timed out with no reply in between, on time or late. The calls pending on it
 * fail with {@link ConnectionLostException} caused by this; the pool opens a new connection,
 * and an idempotent call may be sent again on it. Linux's RPC client does the same after a
 * major timeout: it closes the transport and reconnects.
 */
public final class ServerNotAnsweringException extends TransportClosedException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param endpoint the server
	 * @param timeouts the calls that timed out in a row
	 */
	public ServerNotAnsweringException(String endpoint, int timeouts) {
		super("The server at " + endpoint + " answered none of the last " + timeouts
				+ " calls before their deadlines, though the connection was up; the connection was closed so that "
				+ "a new one is opened (rpcrdma.client.<name>.unanswered-timeouts sets how many, 0 never)");
	}

}
