package io.rpcrdma.service;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Calls an implementation of a bound service interface with decoded arguments, the server
 * side of a procedure once its call has been decoded: synchronous and asynchronous methods
 * alike complete a {@link CompletableFuture} with the result, or exceptionally with what the
 * method threw. Each procedure's method handle is prepared once, bound to the
 * implementation, so a call costs no reflection.
 */
public final class ServiceInvoker {

	private final ServiceDescriptor service;

	private final Object implementation;

	/** Spread invokers {@code (Object[])Object}, in the order of {@link ServiceDescriptor#procedures()}. */
	private final MethodHandle[] handles;

	private ServiceInvoker(ServiceDescriptor service, Object implementation, MethodHandle[] handles) {
		this.service = service;
		this.implementation = implementation;
		this.handles = handles;
	}

	/**
	 * @param service the bound interface
	 * @param implementation an instance implementing it
	 * @return an invoker for its procedures
	 * @throws IllegalArgumentException if {@code implementation} does not implement the
	 * interface or its methods cannot be accessed
	 */
	public static ServiceInvoker bind(ServiceDescriptor service, Object implementation) {
		Objects.requireNonNull(implementation, "implementation");
		Class<?> serviceInterface = service.serviceInterface();
		if (!serviceInterface.isInstance(implementation)) {
			throw new IllegalArgumentException(implementation.getClass().getName() + " does not implement " + serviceInterface.getName());
		}
		MethodHandles.Lookup lookup;
		try {
			lookup = MethodHandles.privateLookupIn(serviceInterface, MethodHandles.lookup());
		}
		catch (IllegalAccessException ex) {
			lookup = MethodHandles.publicLookup();
		}
		List<ProcedureDescriptor> procedures = service.procedures();
		MethodHandle[] handles = new MethodHandle[procedures.size()];
		for (int i = 0; i < handles.length; i++) {
			ProcedureDescriptor procedure = procedures.get(i);
			try {
				MethodHandle handle = lookup.unreflect(procedure.method()).bindTo(implementation);
				int arity = handle.type().parameterCount();
				handles[i] = handle.asType(MethodType.genericMethodType(arity)).asSpreader(Object[].class, arity);
			}
			catch (IllegalAccessException ex) {
				throw new IllegalArgumentException("cannot call " + procedure.method() + " (" + ex.getMessage()
						+ "); make the interface public or open its package to rpcrdma", ex);
			}
		}
		return new ServiceInvoker(service, implementation, handles);
	}

	/** @return the bound interface */
	public ServiceDescriptor service() {
		return this.service;
	}

	/** @return the implementation being called */
	public Object implementation() {
		return this.implementation;
	}

	/**
	 * Calls the procedure's method.
	 * @param procedure a procedure of {@link #service()}
	 * @param arguments one value per parameter, as {@link ProcedureDescriptor#decodeArguments} returns them
	 * @return the result ({@code null} for void); exceptionally completed with what the
	 * method threw, or with its failed future's cause
	 */
	@SuppressWarnings("unchecked")
	public CompletableFuture<Object> invoke(ProcedureDescriptor procedure, Object[] arguments) {
		MethodHandle handle = handle(procedure, arguments);
		Object result;
		try {
			result = handle.invoke((arguments != null) ? arguments : new Object[0]);
		}
		catch (Throwable ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (!procedure.returnsFuture()) {
			return CompletableFuture.completedFuture(result);
		}
		if (result == null) {
			return CompletableFuture.failedFuture(new NullPointerException(procedure.method() + " returned null instead of a CompletableFuture"));
		}
		return (CompletableFuture<Object>) result;
	}

	/**
	 * The method handle {@link #invoke} calls, taking the arguments as one {@code Object[]}:
	 * for the server's synchronous call path, which calls a method returning its result itself
	 * without a future around the result.
	 * @param procedure a procedure of {@link #service()}
	 * @param arguments the arguments it will be called with, checked here
	 * @return the handle
	 * @throws IllegalArgumentException as {@link #invoke} does
	 */
	MethodHandle handle(ProcedureDescriptor procedure, Object[] arguments) {
		int index = indexOf(procedure);
		if (index < 0) {
			throw new IllegalArgumentException(procedure.name() + " (procedure " + Integer.toUnsignedString(procedure.number())
					+ ") is not a procedure of " + this.service);
		}
		int given = (arguments != null) ? arguments.length : 0;
		if (given != procedure.parameters().size()) {
			throw new IllegalArgumentException(procedure.name() + " takes " + procedure.parameters().size() + " arguments but " + given
					+ " were given");
		}
		return this.handles[index];
	}

	/** By identity first, the usual case, which spares comparing descriptors field by field. */
	private int indexOf(ProcedureDescriptor procedure) {
		List<ProcedureDescriptor> procedures = this.service.procedures();
		for (int i = 0; i < procedures.size(); i++) {
			if (procedures.get(i) == procedure) {
				return i;
			}
		}
		return procedures.indexOf(procedure);
	}

}
