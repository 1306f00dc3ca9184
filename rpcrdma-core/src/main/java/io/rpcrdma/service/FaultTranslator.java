package io.rpcrdma.service;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a {@link RemoteFault} back into an exception on the client: the same type as on the
 * server when that is safe, else a {@link RemoteRpcException}.
 * <p>
 * The type name comes from the peer, so it is trusted only this far: the class is looked up
 * without initialising it, through the service interface's class loader, and used only if it
 * is a {@link RuntimeException} or a checked exception the method declares (anything else
 * would surface as an {@code UndeclaredThrowableException}), is public and concrete, and has
 * a public {@code (String)} constructor. {@link Error}s never are. Lookups are cached per
 * type name, with a bounded cache so a peer sending endless names cannot grow it.
 */
final class FaultTranslator {

	private static final int MAX_CACHED = 1024;

	private static final Constructor<?> NONE = noneMarker();

	private final ClassLoader loader;

	private final Map<String, Constructor<?>> constructors = new ConcurrentHashMap<>();

	FaultTranslator(ClassLoader loader) {
		this.loader = loader;
	}

	/**
	 * @param fault what travelled
	 * @param method the method called
	 * @param call names the service, method and endpoint for a {@link RemoteRpcException}
	 * @return the exception to throw
	 */
	Throwable translate(RemoteFault fault, Method method, String call) {
		Constructor<?> constructor = this.constructors.get(fault.type());
		if (constructor == null) {
			constructor = find(fault.type());
			if (this.constructors.size() < MAX_CACHED) {
				this.constructors.put(fault.type(), constructor);
			}
		}
		if (constructor != NONE && declares(method, constructor.getDeclaringClass())) {
			try {
				Throwable rebuilt = (Throwable) constructor.newInstance(fault.message().isEmpty() ? null : fault.message());
				rebuilt.addSuppressed(new RemoteRpcException(fault, call));
				return rebuilt;
			}
			catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
				// Falls through to the generic exception: the type could not be built here.
			}
		}
		return new RemoteRpcException(fault, call);
	}

	private static boolean declares(Method method, Class<?> type) {
		if (RuntimeException.class.isAssignableFrom(type)) {
			return true;
		}
		for (Class<?> declared : method.getExceptionTypes()) {
			if (declared.isAssignableFrom(type)) {
				return true;
			}
		}
		return false;
	}

	private Constructor<?> find(String name) {
		try {
			Class<?> type = Class.forName(name, false, this.loader);
			if (!Exception.class.isAssignableFrom(type) || !Modifier.isPublic(type.getModifiers())
					|| Modifier.isAbstract(type.getModifiers())) {
				return NONE;
			}
			return type.getConstructor(String.class);
		}
		catch (ClassNotFoundException | NoSuchMethodException | LinkageError | SecurityException ex) {
			return NONE;
		}
	}

	private static Constructor<?> noneMarker() {
		try {
			return Object.class.getConstructor();
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
