package io.rpcrdma.spring.boot.autoconfigure.discovery;

/**
 * The service registry did not take the application's registration when the RPC server
 * started: the start fails, as Spring Cloud's own registration of a web application does.
 */
public class DiscoveryRegistrationFailedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what failed and what to do
	 * @param cause the registry's exception
	 */
	public DiscoveryRegistrationFailedException(String message, Throwable cause) {
		super(message, cause);
	}

}
