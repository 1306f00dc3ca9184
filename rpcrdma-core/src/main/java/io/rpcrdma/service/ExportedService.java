package io.rpcrdma.service;

import java.util.Objects;

/**
 * A service interface served by an implementation, as {@link ServiceExporter} bound it.
 *
 * @param descriptor the program version
 * @param implementation the object whose methods run
 */
public record ExportedService(ServiceDescriptor descriptor, Object implementation) {

	public ExportedService {
		Objects.requireNonNull(descriptor, "descriptor");
		Objects.requireNonNull(implementation, "implementation");
	}

	@Override
	public String toString() {
		return this.descriptor + " served by " + this.implementation.getClass().getName();
	}

}
