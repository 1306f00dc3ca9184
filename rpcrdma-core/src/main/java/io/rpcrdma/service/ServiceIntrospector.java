package io.rpcrdma.service;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.service.codec.CodecDefinitionException;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.service.codec.Types;
import io.rpcrdma.service.codec.VoidCodec;
import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.service.codec.XdrOptional;

/**
 * Binds a Java interface annotated {@link RpcProgram} to an ONC RPC program version: finds
 * its remote methods, numbers them, and builds every argument's and result's codec, so that
 * every mistake surfaces here, at bind time, with a message naming the method, the parameter
 * and the type, rather than on the first call.
 * <p>
 * Remote methods are the interface's abstract methods, inherited ones included, with type
 * variables of generic superinterfaces resolved ({@code interface Users extends Repository<User>}).
 * {@code default} and {@code static} methods run locally and are not remote, nor are the
 * methods of {@link Object}. A method returning {@link CompletableFuture}{@code <T>} is
 * asynchronous and its result type is {@code T}.
 * <p>
 * Procedure numbers are explicit ({@link RpcProcedure}) on every remote method or on none.
 * Without them, the methods are sorted by their canonical signature,
 * {@code name(fully.qualified.ParameterType,...)} with erased parameter types compared as
 * strings, and numbered 1..n in that order (an overloaded name then needs explicit numbers,
 * since adding an overload would renumber). The chosen numbers are logged at INFO.
 */
public final class ServiceIntrospector {

	private static final System.Logger LOGGER = System.getLogger(ServiceIntrospector.class.getName());

	private final CodecRegistry codecs;

	/**
	 * @param codecs where argument and result codecs come from
	 */
	public ServiceIntrospector(CodecRegistry codecs) {
		this.codecs = Objects.requireNonNull(codecs, "codecs");
	}

	/** @return the codec registry in use */
	public CodecRegistry codecs() {
		return this.codecs;
	}

	/**
	 * @param serviceInterface an interface annotated {@link RpcProgram}
	 * @return its descriptor
	 * @throws ServiceDefinitionException listing every problem found
	 */
	public ServiceDescriptor describe(Class<?> serviceInterface) {
		Objects.requireNonNull(serviceInterface, "serviceInterface");
		List<String> problems = new ArrayList<>();
		if (!serviceInterface.isInterface() || serviceInterface.isAnnotation()) {
			problems.add(serviceInterface.getName() + " is not an interface; declare the service as a Java interface annotated "
					+ "@RpcProgram and implement it in a class");
			throw new ServiceDefinitionException(serviceInterface, problems);
		}
		RpcProgram program = serviceInterface.getAnnotation(RpcProgram.class);
		if (program == null) {
			problems.add("interface " + serviceInterface.getName() + " has no @RpcProgram annotation; add @RpcProgram(number = ..., "
					+ "version = ...) (or @RpcProgram alone for a number derived from the interface name)");
			throw new ServiceDefinitionException(serviceInterface, problems);
		}
		if (serviceInterface.getTypeParameters().length > 0) {
			problems.add("interface " + serviceInterface.getName() + " is generic (" + serviceInterface.getTypeParameters()[0].getName()
					+ "), so its type variables cannot be resolved; annotate a non-generic interface that extends it with type "
					+ "arguments, e.g. interface Users extends " + serviceInterface.getSimpleName() + "<User>");
			throw new ServiceDefinitionException(serviceInterface, problems);
		}
		boolean derivedProgram = program.number() == RpcProgram.DERIVED;
		int programNumber = derivedProgram ? ProgramNumbers.derive(serviceInterface.getName()) : program.number();
		String name = program.name().isEmpty() ? serviceInterface.getSimpleName() : program.name();

		Map<TypeVariable<?>, Type> bindings = Types.bindings(serviceInterface);
		List<Method> methods = remoteMethods(serviceInterface);
		if (methods.isEmpty()) {
			problems.add("interface " + serviceInterface.getName() + " declares no abstract methods, so the program would have only "
					+ "the NULL procedure; add the remote methods");
			throw new ServiceDefinitionException(serviceInterface, problems);
		}
		Map<Method, Integer> numbers = number(serviceInterface, methods, problems);
		List<ProcedureDescriptor> procedures = new ArrayList<>();
		for (Method method : methods) {
			Integer number = numbers.get(method);
			ProcedureDescriptor procedure = procedure(serviceInterface, method, (number != null) ? number : -1, bindings, problems);
			if (procedure != null && number != null) {
				procedures.add(procedure);
			}
		}
		if (!problems.isEmpty()) {
			throw new ServiceDefinitionException(serviceInterface, problems);
		}
		procedures.sort(Comparator.comparing(ProcedureDescriptor::number, Integer::compareUnsigned));
		ServiceDescriptor descriptor = new ServiceDescriptor(programNumber, program.version(), name, serviceInterface, procedures);
		log(descriptor, derivedProgram, methods.stream().noneMatch((method) -> method.isAnnotationPresent(RpcProcedure.class)));
		return descriptor;
	}

	/**
	 * The canonical signature used to order methods without explicit numbers.
	 * @param method a method
	 * @return {@code name(erased.Parameter.Type,...)}
	 */
	public static String canonicalSignature(Method method) {
		StringJoiner parameters = new StringJoiner(",", method.getName() + "(", ")");
		for (Class<?> type : method.getParameterTypes()) {
			parameters.add(type.getTypeName());
		}
		return parameters.toString();
	}

	private static List<Method> remoteMethods(Class<?> serviceInterface) {
		Map<String, Method> bySignature = new LinkedHashMap<>();
		for (Method method : serviceInterface.getMethods()) {
			if (method.isDefault() || Modifier.isStatic(method.getModifiers()) || method.isSynthetic() || method.isBridge()
					|| isObjectMethod(method)) {
				continue;
			}
			String signature = canonicalSignature(method);
			Method seen = bySignature.get(signature);
			// An interface may redeclare an inherited method (to narrow its result); keep the
			// most specific declaration.
			if (seen == null || seen.getDeclaringClass().isAssignableFrom(method.getDeclaringClass())) {
				bySignature.put(signature, method);
			}
		}
		List<Method> methods = new ArrayList<>(bySignature.values());
		methods.sort(Comparator.comparing(ServiceIntrospector::canonicalSignature));
		return methods;
	}

	private static boolean isObjectMethod(Method method) {
		try {
			Object.class.getMethod(method.getName(), method.getParameterTypes());
			return true;
		}
		catch (NoSuchMethodException ex) {
			return false;
		}
	}

	private static Map<Method, Integer> number(Class<?> serviceInterface, List<Method> methods, List<String> problems) {
		Map<Method, Integer> numbers = new HashMap<>();
		List<Method> explicit = methods.stream().filter((method) -> method.isAnnotationPresent(RpcProcedure.class)).toList();
		if (!explicit.isEmpty() && explicit.size() != methods.size()) {
			List<String> missing = methods.stream()
				.filter((method) -> !method.isAnnotationPresent(RpcProcedure.class))
				.map(ServiceIntrospector::describe)
				.toList();
			problems.add("some methods have @RpcProcedure numbers and some do not (" + String.join(", ", missing)
					+ "); give every remote method of " + serviceInterface.getSimpleName() + " a number or none");
		}
		if (explicit.isEmpty()) {
			Map<String, Method> byName = new HashMap<>();
			for (Method method : methods) {
				Method other = byName.putIfAbsent(method.getName(), method);
				if (other != null) {
					problems.add("overloaded methods " + describe(other) + " and " + describe(method)
							+ " need explicit @RpcProcedure numbers (derived numbers follow the sorted signatures, so adding an "
							+ "overload would renumber the others)");
				}
			}
			int next = 1;
			for (Method method : methods) {
				numbers.put(method, next++);
			}
			return numbers;
		}
		Map<Integer, Method> byNumber = new HashMap<>();
		for (Method method : explicit) {
			int number = method.getAnnotation(RpcProcedure.class).value();
			if (number == 0) {
				problems.add(describe(method) + " has @RpcProcedure(0), but procedure 0 is reserved for the NULL procedure "
						+ "(RFC 5531 §12.1: no arguments, no results, answered by the server itself); number procedures from 1");
				continue;
			}
			Method other = byNumber.putIfAbsent(number, method);
			if (other != null) {
				problems.add("duplicate procedure number " + Integer.toUnsignedString(number) + ": " + describe(other) + " and "
						+ describe(method) + " both have @RpcProcedure(" + Integer.toUnsignedString(number) + ")");
				continue;
			}
			numbers.put(method, number);
		}
		return numbers;
	}

	private ProcedureDescriptor procedure(Class<?> serviceInterface, Method method, int number, Map<TypeVariable<?>, Type> bindings,
			List<String> problems) {
		int before = problems.size();
		if (method.getTypeParameters().length > 0) {
			problems.add(describe(method) + " declares type variable " + method.getTypeParameters()[0].getName()
					+ ", which cannot be resolved when decoding; use concrete types");
			return null;
		}
		Type[] genericTypes = method.getGenericParameterTypes();
		Parameter[] parameters = method.getParameters();
		List<ParameterDescriptor> descriptors = new ArrayList<>();
		for (int i = 0; i < parameters.length; i++) {
			Type type = Types.resolve(genericTypes[i], bindings);
			Bulk bulk = parameters[i].getAnnotation(Bulk.class);
			if (bulk != null && bulk.lend()) {
				problems.add(describe(method) + " parameter " + i + ": @Bulk(lend = true) lends a result; an argument is"
						+ " never lent (pass BulkData.of(registeredBuffer, length) for zero copy)");
			}
			XdrCodec<?> codec = codec(type, parameters[i].isAnnotationPresent(XdrOptional.class), bulk, problems,
					describe(method) + " parameter " + i + " (" + type.getTypeName() + ")");
			if (codec != null) {
				descriptors.add(new ParameterDescriptor(i, parameters[i].getName(), type, codec,
						(bulk != null) ? BulkSpec.of(bulk.maxBytes()) : BulkSpec.NONE));
			}
		}
		Type declaredResult = Types.resolve(method.getGenericReturnType(), bindings);
		boolean future = Types.rawClass(declaredResult) == CompletableFuture.class;
		Type resultType = declaredResult;
		if (future) {
			if (!(declaredResult instanceof ParameterizedType parameterized)) {
				problems.add(describe(method) + " returns a raw CompletableFuture; declare its result type, e.g. CompletableFuture<String> "
						+ "(or CompletableFuture<Void> for none)");
				return null;
			}
			resultType = parameterized.getActualTypeArguments()[0];
		}
		Bulk bulk = method.getAnnotation(Bulk.class);
		XdrCodec<?> resultCodec;
		if (resultType == void.class || resultType == Void.class) {
			if (bulk != null) {
				problems.add(describe(method) + " has @Bulk but returns no result; put @Bulk on the parameter it is meant for");
			}
			resultType = void.class;
			resultCodec = VoidCodec.INSTANCE;
		}
		else {
			resultCodec = codec(resultType, method.isAnnotationPresent(XdrOptional.class), bulk, problems,
					describe(method) + " result (" + resultType.getTypeName() + ")");
			if (bulk != null && bulk.lend() && resultType != BulkData.class) {
				problems.add(describe(method) + " result (" + resultType.getTypeName() + "): @Bulk(lend = true) lends a"
						+ " BulkData the caller closes; declare the result as BulkData, or drop lend");
			}
		}
		if (problems.size() != before) {
			return null;
		}
		return new ProcedureDescriptor(number, method, method.getName(), descriptors, resultType, resultCodec,
				method.isAnnotationPresent(Idempotent.class), (bulk != null) ? BulkSpec.of(bulk.maxBytes()) : BulkSpec.NONE, future);
	}

	private XdrCodec<?> codec(Type type, boolean optional, Bulk bulk, List<String> problems, String where) {
		try {
			if (Types.rawClass(type) == CompletableFuture.class) {
				problems.add(where + ": a CompletableFuture is only supported as a method's result");
				return null;
			}
			if (optional && type instanceof Class<?> cls && cls.isPrimitive()) {
				problems.add(where + ": @XdrOptional on a primitive, which is never null; use its box");
				return null;
			}
			XdrCodec<?> codec;
			if (bulk != null) {
				if (bulk.maxBytes() < 0) {
					problems.add(where + ": @Bulk(maxBytes = " + bulk.maxBytes() + ") must not be negative");
					return null;
				}
				codec = this.codecs.boundedOpaque(type, bulk.maxBytes());
				if (!codec.ddpEligible()) {
					problems.add(where + ": @Bulk marks DDP-eligible opaque data (RFC 8166 §6.1), but " + type.getTypeName()
							+ " is not; use byte[] or ByteBuffer, or a codec whose ddpEligible() is true");
					return null;
				}
			}
			else {
				codec = this.codecs.codecFor(type);
			}
			return optional ? CodecRegistry.optionalData(codec) : codec;
		}
		catch (CodecDefinitionException ex) {
			problems.add(where + ": " + ex.getMessage());
			return null;
		}
	}

	private static String describe(Method method) {
		StringJoiner parameters = new StringJoiner(", ", method.getDeclaringClass().getSimpleName() + "." + method.getName() + "(", ")");
		for (Class<?> type : method.getParameterTypes()) {
			parameters.add(type.getSimpleName());
		}
		return parameters.toString();
	}

	private static void log(ServiceDescriptor descriptor, boolean derivedProgram, boolean derivedProcedures) {
		if (!LOGGER.isLoggable(System.Logger.Level.INFO)) {
			return;
		}
		StringJoiner procedures = new StringJoiner(", ");
		for (ProcedureDescriptor procedure : descriptor.procedures()) {
			procedures.add(procedure.name() + "=" + Integer.toUnsignedString(procedure.number()));
		}
		LOGGER.log(System.Logger.Level.INFO, "Bound {0} as RPC program {1} ({2}) version {3}, procedures ({4}): {5}",
				descriptor.serviceInterface().getName(), ProgramNumbers.hex(descriptor.program()),
				derivedProgram ? "derived from the interface name by FNV-1a; give @RpcProgram(number = ...) if the service evolves"
						: "explicit",
				Integer.toUnsignedString(descriptor.version()),
				derivedProcedures ? "derived from sorted signatures" : "explicit", procedures);
	}

}
