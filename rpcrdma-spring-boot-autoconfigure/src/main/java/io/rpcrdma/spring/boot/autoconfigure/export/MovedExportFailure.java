package io.rpcrdma.spring.boot.autoconfigure.export;

import io.rpcrdma.spring.boot.RpcServiceExportFailedException;

/**
 * Joins the deprecated {@code RpcServiceExportFailedException} of this package to the one of
 * rpcrdma-spring. It exists because a class cannot import a type of its own simple name, and
 * naming it fully qualified would hide the dependency from the imports.
 */
abstract class MovedExportFailure extends RpcServiceExportFailedException {

	private static final long serialVersionUID = 1L;

	MovedExportFailure(String beanName, String message, Throwable cause) {
		super(beanName, message, cause);
	}

}
