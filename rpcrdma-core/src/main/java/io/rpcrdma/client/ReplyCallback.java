package io.rpcrdma.client;

/**
 * How one call ends, told without a future: exactly one of {@link #replied} or
 * {@link #failed}, once. It runs on the thread that ends the call — the transport's receive
 * thread for a reply, the timer thread for a deadline, the calling thread for a call that could
 * not be sent — and must not block.
 */
public interface ReplyCallback {

	/**
	 * The call succeeded (MSG_ACCEPTED SUCCESS).
	 * @param reply the results; the callback owns it and must {@link ReceivedReply#release()
	 * release} it once decoded
	 */
	void replied(ReceivedReply reply);

	/**
	 * The call failed.
	 * @param failure an {@link RpcCallException} (a refusal, {@link CallTimeoutException},
	 * {@link ConnectionLostException}, {@link TooManyPendingCallsException}, ...), a transport
	 * exception, or {@link IllegalArgumentException} for a call its arguments made impossible to
	 * send
	 */
	void failed(Throwable failure);

}
