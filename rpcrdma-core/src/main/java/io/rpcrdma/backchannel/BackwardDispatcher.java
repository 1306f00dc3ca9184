package io.rpcrdma.backchannel;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.server.DispatchOutcome;
import io.rpcrdma.server.RpcDispatcher;
import io.rpcrdma.transport.BackwardCall;
import io.rpcrdma.transport.BackwardCallHandler;

/**
 * Serves a client's {@link CallbackServices} to its server: each backward-direction call
 * (RFC 8167) goes through a {@link RpcDispatcher} as a server's call does (program and
 * version checks, GARBAGE_ARGS, faults, the executor's bounds), and its reply goes back
 * inline on the same connection. A call the dispatcher answers nothing to gives its credit
 * back.
 */
final class BackwardDispatcher implements BackwardCallHandler {

	private static final Logger logger = System.getLogger(BackwardDispatcher.class.getName());

	private final RpcDispatcher dispatcher;

	BackwardDispatcher(CallbackServices services) {
		this.dispatcher = new RpcDispatcher(services.programs(), services.executor());
	}

	@Override
	public void onBackwardCall(BackwardCall call) {
		CompletableFuture<DispatchOutcome> outcome;
		try {
			outcome = this.dispatcher.dispatch(call.message(), call.peerAddress(),
					(xid) -> ByteBuffer.allocate(call.replyLimit()), (xid, reply) -> call.reply(reply));
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Dispatching backward-direction call XID 0x" + Integer.toHexString(call.xid())
					+ " from " + call.peerAddress() + " failed", ex);
			call.drop();
			return;
		}
		outcome.whenComplete((result, error) -> {
			if (!call.isAnswered()) {
				call.drop();
			}
		});
	}

	/** @return the dispatcher, for its statistics */
	RpcDispatcher dispatcher() {
		return this.dispatcher;
	}

}
