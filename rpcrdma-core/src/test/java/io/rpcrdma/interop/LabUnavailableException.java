package io.rpcrdma.interop;

/**
 * The interop lab cannot be had on this machine (no QEMU, no socat, no Debian package
 * archive, a guest image that does not build or boot): the interop tests are skipped with
 * this message.
 */
public final class LabUnavailableException extends LabException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what is missing and how to get it
	 */
	public LabUnavailableException(String message) {
		super(message);
	}

	/**
	 * Creates the exception.
	 * @param message what is missing and how to get it
	 * @param cause the underlying failure
	 */
	public LabUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
