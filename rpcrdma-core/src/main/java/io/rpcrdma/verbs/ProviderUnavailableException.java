package io.rpcrdma.verbs;

/**
 * A provider was asked for by name but is unknown or cannot run here (for example no RDMA
 * device or no native library); the message lists the known providers and why each
 * unavailable one is unavailable.
 */
public class ProviderUnavailableException extends RdmaException {

	/**
	 * Creates the exception.
	 * @param message what was asked for and what is available
	 */
	public ProviderUnavailableException(String message) {
		super(message);
	}

}
