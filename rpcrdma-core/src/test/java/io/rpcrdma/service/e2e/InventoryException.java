package io.rpcrdma.service.e2e;

import io.rpcrdma.service.RpcFault;

/**
 * A checked exception {@link Inventory#put} declares, with a stable code.
 */
@RpcFault(code = 4001)
public class InventoryException extends Exception {

	private static final long serialVersionUID = 1L;

	public InventoryException(String message) {
		super(message);
	}

}
