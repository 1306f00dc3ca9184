package io.rpcrdma.client;

/**
 * The server could not decode the call's arguments (MSG_ACCEPTED GARBAGE_ARGS, RFC 5531 §9).
 * Named apart from the server side's {@code io.rpcrdma.server.GarbageArgumentsException},
 * which a handler throws to produce this reply.
 */
public final class RemoteGarbageArgumentsException extends RpcCallException {

	private static final long serialVersionUID = 1L;

	public RemoteGarbageArgumentsException(RemoteCall call) {
		super(call, "The server at " + call.endpoint() + " could not decode the arguments of " + call
				+ " (GARBAGE_ARGS); the client and server disagree on the procedure's argument types", null);
	}

}
