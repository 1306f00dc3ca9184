package io.rpcrdma.backchannel;

import java.util.Objects;

import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.ServerExecutor;
import io.rpcrdma.transport.BackwardCallHandler;
import io.rpcrdma.transport.RpcRdmaServerConnection;

/**
 * The programs a client serves to its server on the same connection (RFC 8167, the backward
 * direction), how their handlers run, and how many calls the server may have outstanding at
 * once. A client connects serving them with
 * {@code RpcClient.connect(provider, pool, address, config, maxPending, services.handler(), services.credits())}.
 * <p>
 * This package sits above both the client and the server: the client's side of the backward
 * direction runs the server's dispatcher, so neither of those two packages needs the other.
 *
 * @param programs the procedures served, as a server's
 * @param executor where the handlers run: never the connection's completion thread unless
 * {@link ServerExecutor#direct()} is asked for, for handlers that never block
 * @param credits the backward-direction credits granted (RFC 8167 §4.1), each a receive posted
 * per connection; a server never has more calls outstanding, and one that tries is
 * disconnected
 */
public record CallbackServices(ProgramRegistry programs, ServerExecutor executor, int credits) {

	/** The default backward-direction credits. */
	public static final int DEFAULT_CREDITS = 8;

	/** Validates. */
	public CallbackServices {
		Objects.requireNonNull(programs, "programs");
		Objects.requireNonNull(executor, "executor");
		if (credits < 1 || credits > RpcRdmaServerConnection.MAX_BACKWARD_CREDITS) {
			throw new IllegalArgumentException("Backward-direction credits must be within 1 and "
					+ RpcRdmaServerConnection.MAX_BACKWARD_CREDITS + ", got " + credits);
		}
	}

	/**
	 * @return a handler that dispatches each backward-direction call to {@link #programs()} on
	 * {@link #executor()}, for one connection
	 */
	public BackwardCallHandler handler() {
		return new BackwardDispatcher(this);
	}

}
