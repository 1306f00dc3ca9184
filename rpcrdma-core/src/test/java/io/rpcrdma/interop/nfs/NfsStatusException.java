package io.rpcrdma.interop.nfs;

/**
 * An NFS procedure answered with a status other than OK (nfsstat3, RFC 1813 §2.6; nfsstat4,
 * RFC 7530 §13).
 */
public final class NfsStatusException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int status;

	/**
	 * Creates the exception.
	 * @param operation what was asked
	 * @param status the status the server returned
	 */
	public NfsStatusException(String operation, int status) {
		super(operation + " failed with NFS status " + status);
		this.status = status;
	}

	/**
	 * The server's status.
	 * @return nfsstat3 or nfsstat4
	 */
	public int status() {
		return this.status;
	}

}
