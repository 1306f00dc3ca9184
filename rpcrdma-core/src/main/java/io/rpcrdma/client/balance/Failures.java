package io.rpcrdma.client.balance;

import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.client.RpcCallException;
import io.rpcrdma.client.TooManyPendingCallsException;

/**
 * What one failed attempt says about its instance and about the call.
 */
final class Failures {

	private Failures() {
	}

	/**
	 * @return whether the attempt certainly did not leave this client: no connection (or no room
	 * on one) was found for it, so even a non-idempotent call may go to another instance
	 */
	static boolean neverSent(Throwable failure) {
		return failure instanceof PoolExhaustedException || failure instanceof TooManyPendingCallsException;
	}

	/**
	 * @return whether the call may be sent again, elsewhere: never sent, or idempotent and lost
	 * with its connection (it may have run; running it again is harmless). A non-idempotent
	 * call lost with its connection is not: its {@link ConnectionLostException} says it may or
	 * may not have run, and only the application can tell.
	 */
	static boolean mayRetry(Throwable failure, boolean idempotent) {
		return neverSent(failure) || (idempotent && failure instanceof ConnectionLostException);
	}

	/** @return whether the failure counts toward ejecting the instance */
	static boolean connectionFailure(Throwable failure) {
		return failure instanceof ConnectionLostException || failure instanceof PoolExhaustedException;
	}

	/**
	 * @return whether the server answered (an RPC-level refusal or error), which proves the
	 * instance reachable; a timeout proves nothing either way
	 */
	static boolean serverAnswered(Throwable failure) {
		return failure instanceof RpcCallException && !(failure instanceof ConnectionLostException)
				&& !(failure instanceof CallTimeoutException) && !(failure instanceof TooManyPendingCallsException);
	}

	/** @return the message, or the type when there is none */
	static String describe(Throwable failure) {
		String message = failure.getMessage();
		return (message != null) ? message : failure.getClass().getSimpleName();
	}

}
