package io.rpcrdma.spring.boot.autoconfigure.export;

/**
 * The export failure at its old name. The exporter now throws
 * {@link io.rpcrdma.spring.boot.RpcServiceExportFailedException}, the supertype of this one,
 * so a {@code catch} of this type no longer sees it: catch the new type.
 *
 * @deprecated since 0.1.0, use {@link io.rpcrdma.spring.boot.RpcServiceExportFailedException}
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class RpcServiceExportFailedException extends MovedExportFailure {

	private static final long serialVersionUID = 1L;

	/**
	 * @param beanName the bean that could not be exported
	 * @param message what went wrong and what to do
	 * @param cause the exporter's exception
	 */
	public RpcServiceExportFailedException(String beanName, String message, Throwable cause) {
		super(beanName, message, cause);
	}

}
