package io.rpcrdma.spring.boot.client;

/**
 * {@code @ImportRpcClients} (or a registration through {@link RpcClientsRegistrar}) names a
 * type that is not an interface annotated {@code @RpcProgram}, so no client can be made for it.
 */
public class InvalidRpcClientInterfaceException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final Class<?> type;

	/**
	 * Creates the exception.
	 * @param type the type listed
	 */
	public InvalidRpcClientInterfaceException(Class<?> type) {
		super("@ImportRpcClients lists " + type.getName()
				+ ", which is not an interface annotated @RpcProgram; list service interfaces only");
		this.type = type;
	}

	/**
	 * The type listed.
	 * @return the type
	 */
	public Class<?> type() {
		return this.type;
	}

}
