package io.rpcrdma.verbs;

/**
 * A remote access to registered memory was refused; {@link #error()} says why. Providers
 * raise it internally while checking a tagged access, and turn it into a
 * {@link CompletionStatus#REM_ACCESS_ERR} completion at the initiator plus a terminated
 * connection: a violation is never a silent read or write (RFC 5040 error management, RFC 5042 security).
 */
public class RemoteAccessException extends RdmaException {

	private final RemoteAccessError error;

	private final int stag;

	/**
	 * Creates the exception.
	 * @param error the classification
	 * @param stag the STag that was used
	 * @param message what was accessed and why it was refused
	 */
	public RemoteAccessException(RemoteAccessError error, int stag, String message) {
		super(message);
		this.error = error;
		this.stag = stag;
	}

	/**
	 * Why the access was refused.
	 * @return the classification
	 */
	public RemoteAccessError error() {
		return this.error;
	}

	/**
	 * The STag the access used.
	 * @return the STag
	 */
	public int stag() {
		return this.stag;
	}

}
