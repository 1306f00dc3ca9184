package io.rpcrdma.service;

import java.util.Optional;

import io.rpcrdma.server.ServerCall;

/**
 * The call an exported service's method is running for, on the thread that runs it: its
 * header, principal and the connection it came on, so that the method can call the client
 * back ({@code io.rpcrdma.backchannel.Backchannels#callerOf}, {@link ServiceClientFactory#callback(Class)}).
 * Set for the synchronous part of the method only: an asynchronous method takes what it
 * needs before it returns its future.
 */
public final class RpcCallContext {

	private static final ThreadLocal<ServerCall> CURRENT = new ThreadLocal<>();

	private RpcCallContext() {
	}

	/**
	 * @return the call running on this thread
	 * @throws IllegalStateException if no exported method is running on this thread for a call
	 */
	public static ServerCall current() {
		ServerCall call = CURRENT.get();
		if (call == null) {
			throw new IllegalStateException("No rpcrdma call is running on this thread: RpcCallContext is set while an"
					+ " exported service method runs, on its thread, until it returns");
		}
		return call;
	}

	/** @return the call running on this thread, if any */
	public static Optional<ServerCall> find() {
		return Optional.ofNullable(CURRENT.get());
	}

	/**
	 * Makes {@code call} current and returns what was current before, for {@link #restore}.
	 * Set, never removed, so that a thread that runs call after call allocates nothing for it.
	 */
	static ServerCall enter(ServerCall call) {
		ServerCall previous = CURRENT.get();
		CURRENT.set(call);
		return previous;
	}

	static void restore(ServerCall previous) {
		CURRENT.set(previous);
	}

}
