package io.rpcrdma.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

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
	CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments, CallShape shape,
			boolean idempotent, Duration timeout);

	/** @return the server, as named in exceptions */
	String endpoint();

}
