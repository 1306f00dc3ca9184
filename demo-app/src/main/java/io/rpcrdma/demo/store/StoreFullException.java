package io.rpcrdma.demo.store;

import io.rpcrdma.service.RpcFault;

/**
 * The store has no room for an object: delete some or raise {@code demo.store.capacity}.
 */
@RpcFault(code = 507)
public class StoreFullException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message how much was asked for and how much is free
	 */
	public StoreFullException(String message) {
		super(message);
	}

}
