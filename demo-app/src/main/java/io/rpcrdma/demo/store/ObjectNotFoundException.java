package io.rpcrdma.demo.store;

import io.rpcrdma.service.RpcFault;

/**
 * No object has the key asked for. Thrown by the store, it travels back as an RPC fault and
 * is rethrown as this type by the client (docs/service.md, "Exceptions").
 */
@RpcFault(code = 404)
public class ObjectNotFoundException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what was missing
	 */
	public ObjectNotFoundException(String message) {
		super(message);
	}

	static ObjectNotFoundException forKey(String key) {
		return new ObjectNotFoundException("No object '" + key + "' in the store");
	}

}
