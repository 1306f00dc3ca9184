package io.rpcrdma.service;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RegisteredProcedure;

/**
 * Serves implementations of service interfaces: binds each {@link RpcProgram} interface an
 * object implements ({@link ServiceIntrospector}), and registers one handler per procedure in
 * a {@link ProgramRegistry}, which an {@link io.rpcrdma.server.RpcServer} dispatches from.
 * Several versions of a program (several interfaces with one program number) are served side
 * by side; a call to another version gets PROG_MISMATCH with the lowest and highest served
 * (RFC 5531 §9), from the registry.
 * <p>
 * An export is all or nothing: every interface is described and checked for conflicts
 * before any procedure is registered. {@link Idempotent} procedures bypass the server's
 * duplicate request cache; all others are answered from it when retransmitted.
 */
public final class ServiceExporter {

	private static final System.Logger logger = System.getLogger(ServiceExporter.class.getName());

	private final ServiceIntrospector introspector;

	private final ProgramRegistry registry;

	private final ServiceCallObserver observer;

	private final List<RpcServerInterceptor> interceptors;

	/** (program, version) → what serves it, in export order. */
	private final Map<Long, ExportedService> exported = new LinkedHashMap<>();

	/**
	 * @param introspector binds interfaces
	 * @param registry where the procedures are registered
	 */
	public ServiceExporter(ServiceIntrospector introspector, ProgramRegistry registry) {
		this(introspector, registry, ServiceCallObserver.NONE);
	}

	/**
	 * @param introspector binds interfaces
	 * @param registry where the procedures are registered
	 * @param observer watches every call served
	 */
	public ServiceExporter(ServiceIntrospector introspector, ProgramRegistry registry, ServiceCallObserver observer) {
		this(introspector, registry, observer, List.of());
	}

	/**
	 * @param introspector binds interfaces
	 * @param registry where the procedures are registered
	 * @param observer watches every call served
	 * @param interceptors act around every call served, the first outermost
	 */
	public ServiceExporter(ServiceIntrospector introspector, ProgramRegistry registry, ServiceCallObserver observer,
			List<RpcServerInterceptor> interceptors) {
		this.introspector = Objects.requireNonNull(introspector, "introspector");
		this.registry = Objects.requireNonNull(registry, "registry");
		this.observer = Objects.requireNonNull(observer, "observer");
		this.interceptors = List.copyOf(Objects.requireNonNull(interceptors, "interceptors"));
	}

	/**
	 * Serves every {@link RpcProgram} interface the implementation's class implements,
	 * directly or through superclasses and superinterfaces.
	 * @param implementation the object whose methods run
	 * @return what was exported, one entry per interface
	 * @throws ServiceExportException if it implements none, or one of its program versions is
	 * already served
	 * @throws ServiceDefinitionException if an interface is not a valid service
	 */
	public List<ExportedService> export(Object implementation) {
		Objects.requireNonNull(implementation, "implementation");
		Set<Class<?>> interfaces = new LinkedHashSet<>();
		for (Class<?> type = implementation.getClass(); type != null; type = type.getSuperclass()) {
			collectPrograms(type, interfaces);
		}
		if (interfaces.isEmpty()) {
			throw new ServiceExportException(ServiceExportException.Reason.NO_PROGRAM_INTERFACE,
					implementation.getClass().getName() + " implements no interface annotated"
					+ " @RpcProgram; declare the service as an interface with @RpcProgram and implement it");
		}
		List<ServiceDescriptor> descriptors = new ArrayList<>();
		for (Class<?> serviceInterface : interfaces) {
			descriptors.add(this.introspector.describe(serviceInterface));
		}
		return register(descriptors, implementation);
	}

	/**
	 * Serves one interface.
	 * @param <T> the interface
	 * @param serviceInterface the interface, annotated {@link RpcProgram}
	 * @param implementation the object whose methods run
	 * @return what was exported
	 * @throws ServiceExportException if its program version is already served
	 * @throws ServiceDefinitionException if the interface is not a valid service
	 */
	public <T> ExportedService export(Class<T> serviceInterface, T implementation) {
		Objects.requireNonNull(implementation, "implementation");
		return register(List.of(this.introspector.describe(serviceInterface)), implementation).get(0);
	}

	/** @return everything exported so far, in export order */
	public synchronized List<ExportedService> exported() {
		return List.copyOf(this.exported.values());
	}

	/** @return the registry the procedures are registered in */
	public ProgramRegistry registry() {
		return this.registry;
	}

	private synchronized List<ExportedService> register(List<ServiceDescriptor> descriptors, Object implementation) {
		List<String> conflicts = new ArrayList<>();
		Map<Long, ServiceDescriptor> batch = new LinkedHashMap<>();
		for (ServiceDescriptor descriptor : descriptors) {
			long key = key(descriptor);
			ExportedService existing = this.exported.get(key);
			ServiceDescriptor sibling = batch.put(key, descriptor);
			if (existing != null) {
				conflicts.add(describe(descriptor) + " of " + descriptor.serviceInterface().getName() + " is already served by "
						+ existing.implementation().getClass().getName() + " (" + existing.descriptor().serviceInterface().getName()
						+ ")");
			}
			else if (sibling != null) {
				conflicts.add(describe(descriptor) + " is declared by both " + sibling.serviceInterface().getName() + " and "
						+ descriptor.serviceInterface().getName());
			}
			else if (this.registry.resolve(descriptor.program(), descriptor.version(), 0) instanceof RegisteredProcedure) {
				conflicts.add(describe(descriptor) + " of " + descriptor.serviceInterface().getName()
						+ " is already registered in the program registry by other code");
			}
		}
		if (!conflicts.isEmpty()) {
			throw new ServiceExportException(ServiceExportException.Reason.PROGRAM_VERSION_TAKEN,
					"Cannot serve " + implementation.getClass().getName() + ": "
					+ String.join("; ", conflicts) + ". Give each service its own program number or version"
					+ " (@RpcProgram(number = ..., version = ...)); a derived number can collide");
		}
		List<ExportedService> result = new ArrayList<>();
		for (ServiceDescriptor descriptor : descriptors) {
			ServiceInvoker invoker = ServiceInvoker.bind(descriptor, implementation);
			this.registry.registerVersion(descriptor.program(), descriptor.version());
			for (ProcedureDescriptor procedure : descriptor.procedures()) {
				this.registry.register(descriptor.program(), descriptor.version(), procedure.number(),
						procedure.idempotent() ? Idempotence.IDEMPOTENT : Idempotence.NON_IDEMPOTENT,
						new ServiceProcedureHandler(invoker, procedure, this.observer, this.interceptors));
			}
			ExportedService service = new ExportedService(descriptor, implementation);
			this.exported.put(key(descriptor), service);
			result.add(service);
			logger.log(Level.INFO, () -> "Serving " + service);
		}
		return List.copyOf(result);
	}

	private static void collectPrograms(Class<?> type, Set<Class<?>> found) {
		for (Class<?> candidate : type.getInterfaces()) {
			if (candidate.isAnnotationPresent(RpcProgram.class)) {
				found.add(candidate);
			}
			collectPrograms(candidate, found);
		}
	}

	private static long key(ServiceDescriptor descriptor) {
		return ((long) descriptor.program() << 32) | (descriptor.version() & 0xFFFF_FFFFL);
	}

	private static String describe(ServiceDescriptor descriptor) {
		return "program " + ProgramNumbers.hex(descriptor.program()) + " version "
				+ Integer.toUnsignedString(descriptor.version());
	}

}
