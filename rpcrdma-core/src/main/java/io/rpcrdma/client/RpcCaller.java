package io.rpcrdma.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Something that sends ONC RPC calls to one server: a single {@link RpcClient} connection or
 * an {@link RpcClientPool}. What the service layer's proxies call through.
 */
public interface RpcCaller {

	/**
	 * Calls a procedure.
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param arguments writes the arguments (again for each retry), and names the procedure
	 * in exceptions ({@link CallBody#procedureName()})
	 * @param shape DDP-eligible argument items, Write chunks to offer, size limits
	 * @param idempotent whether the call may be sent again after its connection is lost
	 * @param timeout the deadline for the whole call, retries included
	 * @return completes with the reply (release it after decoding), or fails with an
	 * {@link RpcCallException} (or {@link IllegalArgumentException} for a call that cannot be sent)
	 */
	CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments, CallChunks shape,
			boolean idempotent, Duration timeout);

	/**
	 * Calls a procedure as {@link #call(int, int, int, CallBody, CallChunks, boolean, Duration)}
	 * does, telling {@code callback} how it ends instead of completing a future: the call path
	 * of the service proxies. This default adapts the future; {@link RpcClient} and
	 * {@link RpcClientPool} allocate nothing per call here beyond what the call itself needs.
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param arguments writes the arguments (again for each retry)
	 * @param shape DDP-eligible argument items, Write chunks to offer, size limits
	 * @param idempotent whether the call may be sent again after its connection is lost
	 * @param timeout the deadline for the whole call, retries included
	 * @param callback told the reply (which it releases) or the failure, exactly once
	 */
	default void call(int program, int version, int procedure, CallBody arguments, CallChunks shape, boolean idempotent,
			Duration timeout, ReplyCallback callback) {
		CompletableFuture<ReceivedReply> reply;
		try {
			reply = call(program, version, procedure, arguments, shape, idempotent, timeout);
		}
		catch (RuntimeException ex) {
			callback.failed(ex);
			return;
		}
		reply.whenComplete((received, error) -> {
			if (error != null) {
				callback.failed((error instanceof CompletionException && error.getCause() != null) ? error.getCause() : error);
			}
			else {
				callback.replied(received);
			}
		});
	}

	/** @return the server, as named in exceptions */
	String endpoint();

}
