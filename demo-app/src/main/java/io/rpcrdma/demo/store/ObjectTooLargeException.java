package io.rpcrdma.demo.store;

import io.rpcrdma.service.RpcFault;

/**
 * An object is larger than the store accepts.
 */
@RpcFault(code = 413)
public class ObjectTooLargeException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message the size and the limit
	 */
	public ObjectTooLargeException(String message) {
		super(message);
	}

}
