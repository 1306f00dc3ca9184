package io.rpcrdma.demo.cli;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import io.rpcrdma.client.CallTimeoutException;
import io.rpcrdma.client.ConnectionLostException;
import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.demo.Sizes;
import io.rpcrdma.demo.store.ObjectNotFoundException;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectTooLargeException;
import io.rpcrdma.demo.store.StoreFullException;
import io.rpcrdma.service.RemoteRpcException;
import io.rpcrdma.transport.MessageTooLargeException;
import io.rpcrdma.transport.TransportException;

/**
 * Turns what a call to the store threw into one line for the console, saying what went wrong
 * and what to do, instead of a stack trace.
 */
public final class ErrorMessages {

	/** Exit status: the store refused the request (missing object, too large, bad key). */
	public static final int REFUSED = 1;

	/** Exit status: the store could not be reached or did not answer. */
	public static final int UNREACHABLE = 2;

	/** Exit status: anything else; a bug to report. */
	public static final int FAILED = 3;

	private ErrorMessages() {
	}

	/**
	 * A failure described for the console.
	 *
	 * @param message one line
	 * @param exitStatus the process exit status it deserves
	 */
	public record Described(String message, int exitStatus) {
	}

	/**
	 * @param failure what a call threw
	 * @param address where the store was called, as the user configured it
	 * @return the line to print and the exit status
	 */
	public static Described describe(Throwable failure, String address) {
		Throwable error = unwrap(failure);
		if (error instanceof ObjectNotFoundException || error instanceof ObjectTooLargeException
				|| error instanceof StoreFullException) {
			return new Described(error.getMessage(), REFUSED);
		}
		if (error instanceof IllegalArgumentException) {
			return new Described("Invalid request: " + error.getMessage(), REFUSED);
		}
		if (error instanceof StoreUnreachableException) {
			return new Described(error.getMessage(), UNREACHABLE);
		}
		if (error instanceof MessageTooLargeException) {
			// This process's own registered memory is too small for the call: nothing to do with
			// whether the store can be reached.
			return new Described("This process cannot convey the call: " + error.getMessage()
					+ ". Objects reach " + Sizes.format(ObjectStore.MAX_OBJECT_BYTES)
					+ ", so rpcrdma.memory.largest-chunk must be at least twice that (the demo's default is 64MB).", FAILED);
		}
		if (error instanceof PoolExhaustedException || error instanceof ConnectionLostException
				|| error instanceof CallTimeoutException || error instanceof TransportException) {
			return new Described(unreachable(address, error.getMessage()), UNREACHABLE);
		}
		if (error instanceof RemoteRpcException remote) {
			return new Described("The object store failed with " + remote.remoteType() + ": " + remote.remoteMessage(),
					FAILED);
		}
		return new Described("Unexpected " + error.getClass().getSimpleName() + ": " + error.getMessage(), FAILED);
	}

	/**
	 * @param address the store's address
	 * @param reason what the transport said
	 * @return the line saying the store cannot be reached and what to check
	 */
	public static String unreachable(String address, String reason) {
		return "Cannot reach the object store at " + address + ": " + reason + ". Is the server running? Start one with "
				+ "--spring.profiles.active=server, or set rpcrdma.client.store.address=host:port to a running one.";
	}

	private static Throwable unwrap(Throwable failure) {
		Throwable error = failure;
		while ((error instanceof CompletionException || error instanceof ExecutionException) && error.getCause() != null) {
			error = error.getCause();
		}
		return error;
	}

}
