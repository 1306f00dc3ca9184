package io.rpcrdma.service;

/**
 * An implementation cannot be served: it implements no {@link RpcProgram} interface, or
 * another implementation already serves one of its program versions.
 */
public class ServiceExportException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what is wrong and what to do
	 */
	public ServiceExportException(String message) {
		super(message);
	}

}
