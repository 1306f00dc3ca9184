package io.rpcrdma.spring.boot;

/**
 * An {@link io.rpcrdma.spring.boot.RpcService @RpcService} bean could not be served: it
 * implements no {@code @RpcProgram} interface, an interface is not a valid service, or a
 * program version it implements is already served by another bean.
 */
public class RpcServiceExportFailedException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String beanName;

	/**
	 * @param beanName the bean that could not be exported
	 * @param message what went wrong and what to do
	 * @param cause the exporter's exception
	 */
	public RpcServiceExportFailedException(String beanName, String message, Throwable cause) {
		super(message, cause);
		this.beanName = beanName;
	}

	/** @return the bean that could not be exported */
	public String getBeanName() {
		return this.beanName;
	}

}
