package io.rpcrdma.service.codec;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.rpcrdma.service.BulkData;

/**
 * Builds and caches one {@link XdrCodec} per Java type.
 * <p>
 * Providers ({@link XdrCodecProvider}) are asked first, in registration order; then the
 * built-in rules apply:
 * <ul>
 * <li>{@code boolean} → {@code bool}; {@code byte}, {@code short}, {@code char}, {@code int} →
 * {@code int}; {@code long} → {@code hyper}; {@code float}; {@code double} (RFC 4506 §4.1–4.7);</li>
 * <li>boxed primitives → optional-data {@code T *} (RFC 4506 §4.19), {@code null} being absent;</li>
 * <li>{@link String} → {@code string<>} in UTF-8; {@code byte[]} and {@link ByteBuffer} →
 * {@code opaque<>} (DDP-eligible; a decoded ByteBuffer is a zero-copy slice);</li>
 * <li>enums → {@code enum} by {@link XdrValue} or declaration order;</li>
 * <li>arrays, {@link List}, {@link Collection}, {@link Set} → {@code T<>}; {@link Map} → an
 * array of key/value structs; {@link Optional} → {@code T *};</li>
 * <li>records → structs of their components in declaration order; classes annotated
 * {@link XdrFields} or with {@link XdrField} fields → structs of those fields;</li>
 * <li>types that refer to themselves (through an optional or a collection) are built with a
 * lazily resolved reference, and their nesting depth is bounded when coding.</li>
 * </ul>
 * Other reference types are rejected when the codec is built with a
 * {@link CodecDefinitionException} saying how to plug a codec in. Building is serialised
 * (it happens at bind time); looking up a built codec is a lock-free map read.
 */
public final class CodecRegistry {

	private final CodecLimits limits;

	private final List<XdrCodecProvider> providers;

	private final ConcurrentHashMap<Type, XdrCodec<?>> codecs = new ConcurrentHashMap<>();

	private final Object buildLock = new Object();

	/** The build in progress on the thread holding {@link #buildLock}; null otherwise. */
	private Build build;

	private CodecRegistry(CodecLimits limits, List<XdrCodecProvider> providers) {
		this.limits = limits;
		this.providers = List.copyOf(providers);
	}

	/**
	 * @return a registry with the built-in rules, {@link CodecLimits#DEFAULTS} and no providers
	 */
	public static CodecRegistry standard() {
		return builder().build();
	}

	/** @return a builder for limits and providers */
	public static Builder builder() {
		return new Builder();
	}

	/** @return the limits every decoder of this registry enforces */
	public CodecLimits limits() {
		return this.limits;
	}

	/** @return the providers consulted before the built-in rules, in order */
	public List<XdrCodecProvider> providers() {
		return this.providers;
	}

	/**
	 * @param type a class
	 * @param <T> the type
	 * @return its codec, built on first use
	 * @throws CodecDefinitionException if the type has no codec
	 */
	@SuppressWarnings("unchecked")
	public <T> XdrCodec<T> codecFor(Class<T> type) {
		return (XdrCodec<T>) codecFor((Type) type);
	}

	/**
	 * @param type a class, parameterized type or generic array type without unresolved type
	 * variables
	 * @return its codec, built on first use
	 * @throws CodecDefinitionException if the type has no codec
	 */
	public XdrCodec<?> codecFor(Type type) {
		Objects.requireNonNull(type, "type");
		XdrCodec<?> codec = this.codecs.get(type);
		if (codec != null) {
			return codec;
		}
		synchronized (this.buildLock) {
			if (this.build != null) {
				// A provider asking for a nested type while a build is under way.
				return this.build.resolve(type);
			}
			codec = this.codecs.get(type);
			if (codec != null) {
				return codec;
			}
			this.build = new Build();
			try {
				codec = this.build.resolve(type);
				// Publish only complete builds: a failed build leaves no codec that refers to
				// an unresolved reference.
				this.codecs.putAll(this.build.built);
				return codec;
			}
			finally {
				this.build = null;
			}
		}
	}

	/**
	 * The codec for a value that may be {@code null}: XDR optional-data (RFC 4506 §4.19).
	 * @param element the codec of a present value
	 * @param <T> the type
	 * @return the optional codec
	 */
	public static <T> XdrCodec<T> optionalData(XdrCodec<T> element) {
		if (element instanceof OptionalDataCodec<T>) {
			return element;
		}
		return new OptionalDataCodec<>(element);
	}

	/**
	 * The codec for opaque data bounded by its own limit instead of
	 * {@link CodecLimits#maxOpaqueBytes()}, for a {@link io.rpcrdma.service.Bulk} item.
	 * @param type {@code byte[]}, {@link ByteBuffer}, or a type whose codec is DDP-eligible
	 * (which keeps its own bound)
	 * @param maxBytes the largest size accepted
	 * @return the codec
	 */
	public XdrCodec<?> boundedOpaque(Type type, int maxBytes) {
		if (type == byte[].class) {
			return new OpaqueCodecs.Bytes(maxBytes);
		}
		if (type == ByteBuffer.class) {
			return new OpaqueCodecs.Buffer(maxBytes);
		}
		if (type == BulkData.class) {
			return new OpaqueCodecs.Bulk(maxBytes);
		}
		return codecFor(type);
	}

	/**
	 * Finds the class and the type-variable bindings of a record or struct class, and what a
	 * member's generic type resolves to.
	 */
	private final class Build {

		final Map<Type, XdrCodec<?>> built = new LinkedHashMap<>();

		final Map<Type, InProgress> inProgress = new HashMap<>();

		/** How many optionals and collections lie between the outermost type and here. */
		int breaks;

		XdrCodec<?> resolve(Type type) {
			type = canonical(type);
			XdrCodec<?> codec = CodecRegistry.this.codecs.get(type);
			if (codec == null) {
				codec = this.built.get(type);
			}
			if (codec != null) {
				return codec;
			}
			InProgress pending = this.inProgress.get(type);
			if (pending != null) {
				if (pending.breaks == this.breaks) {
					throw new CodecDefinitionException(type.getTypeName() + " contains itself by value (through members that are "
							+ "neither optional nor collections), so no finite XDR value of it exists; declare the recursive "
							+ "member Optional<...> or @XdrOptional (XDR optional-data, RFC 4506 §4.19) or make it a collection");
				}
				return pending.reference;
			}
			codec = create(type);
			this.built.put(type, codec);
			return codec;
		}

		/** Resolves a type nested in an optional or a collection, where recursion may end. */
		XdrCodec<?> inside(Type type) {
			this.breaks++;
			try {
				return resolve(type);
			}
			finally {
				this.breaks--;
			}
		}

		private XdrCodec<?> create(Type type) {
			for (XdrCodecProvider provider : CodecRegistry.this.providers) {
				XdrCodec<?> codec = provider.codecFor(type, CodecRegistry.this);
				if (codec != null) {
					return codec;
				}
			}
			CodecLimits limits = CodecRegistry.this.limits;
			if (type instanceof Class<?> cls) {
				if (cls.isPrimitive()) {
					if (cls == void.class) {
						throw new CodecDefinitionException("void has no value to encode; it is only a procedure's result");
					}
					return ScalarCodecs.forPrimitive(cls);
				}
				Class<?> primitive = ScalarCodecs.unbox(cls);
				if (primitive != null) {
					return optionalData(ScalarCodecs.forPrimitive(primitive));
				}
				if (cls == String.class) {
					return new StringCodec(limits.maxStringBytes());
				}
				if (cls == byte[].class) {
					return new OpaqueCodecs.Bytes(limits.maxOpaqueBytes());
				}
				if (cls == ByteBuffer.class) {
					return new OpaqueCodecs.Buffer(limits.maxOpaqueBytes());
				}
				if (cls == BulkData.class) {
					return new OpaqueCodecs.Bulk(limits.maxOpaqueBytes());
				}
				if (cls.isArray()) {
					Class<?> component = cls.getComponentType();
					if (component.isPrimitive()) {
						return new PrimitiveArrayCodec(component, limits.maxCollectionSize());
					}
					return new CollectionCodecs.ObjectArrayCodec<>(inside(component), component, limits.maxCollectionSize());
				}
				if (cls.isEnum()) {
					return enumCodec(cls);
				}
				if (cls.getSuperclass() != null && cls.getSuperclass().isEnum()) {
					return enumCodec(cls.getSuperclass());
				}
				if (cls == List.class || cls == Collection.class || cls == Set.class || cls == Map.class || cls == Optional.class) {
					throw new CodecDefinitionException("raw type " + cls.getName() + " has no element type to encode; declare it, e.g. "
							+ cls.getSimpleName() + (cls == Map.class ? "<String, Integer>" : "<String>"));
				}
				if (cls.isRecord() || isXdrStructClass(cls)) {
					if (cls.getTypeParameters().length > 0) {
						throw new CodecDefinitionException("raw use of generic " + cls.getName() + ": its type variable "
								+ cls.getTypeParameters()[0].getName() + " cannot be resolved; use it with type arguments, e.g. "
								+ cls.getSimpleName() + "<String>");
					}
					return struct(cls, cls);
				}
				throw unsupported(type);
			}
			if (type instanceof ParameterizedType parameterized) {
				Class<?> raw = (Class<?>) parameterized.getRawType();
				Type[] args = parameterized.getActualTypeArguments();
				int max = limits.maxCollectionSize();
				if (raw == List.class) {
					return new CollectionCodecs.ListCodec<>(inside(args[0]), max);
				}
				if (raw == Collection.class) {
					return new CollectionCodecs.CollectionCodec<>(inside(args[0]), max);
				}
				if (raw == Set.class) {
					return new CollectionCodecs.SetCodec<>(inside(args[0]), max);
				}
				if (raw == Map.class) {
					return new CollectionCodecs.MapCodec<>(inside(args[0]), inside(args[1]), max);
				}
				if (raw == Optional.class) {
					return new JavaOptionalCodec<>(inside(args[0]));
				}
				if (raw.isRecord() || isXdrStructClass(raw)) {
					return struct(raw, parameterized);
				}
				throw unsupported(type);
			}
			if (type instanceof GenericArrayType array) {
				Type component = array.getGenericComponentType();
				return new CollectionCodecs.ObjectArrayCodec<>(inside(component), Types.rawClass(component), limits.maxCollectionSize());
			}
			if (type instanceof TypeVariable<?> variable) {
				throw new CodecDefinitionException("type variable " + variable.getName() + " (declared by "
						+ declarer(variable) + ") cannot be resolved to a concrete type; use a concrete type, or a generic "
						+ "type with its type arguments given");
			}
			throw unsupported(type);
		}

		@SuppressWarnings({ "unchecked", "rawtypes" })
		private XdrCodec<?> enumCodec(Class<?> cls) {
			return new EnumCodec(cls);
		}

		private XdrCodec<?> struct(Class<?> cls, Type type) {
			if (Modifier.isAbstract(cls.getModifiers()) || cls.isInterface()) {
				throw new CodecDefinitionException(cls.getName() + " is abstract; only concrete classes can be decoded as XDR structs");
			}
			if (cls.isMemberClass() && !Modifier.isStatic(cls.getModifiers())) {
				throw new CodecDefinitionException(cls.getName() + " is an inner class; make it static so it can be constructed when decoding");
			}
			RecursiveReference<Object> reference = new RecursiveReference<>(type, CodecRegistry.this.limits.maxDepth());
			this.inProgress.put(type, new InProgress(reference, this.breaks));
			try {
				Map<TypeVariable<?>, Type> bindings = Types.bindings(type);
				MethodHandles.Lookup lookup = lookupIn(cls);
				if (cls.isRecord() ? cls.getRecordComponents().length == 0 : declaredFieldOrder(cls).isEmpty()) {
					throw new CodecDefinitionException(cls.getName() + " has no members, but an XDR struct needs at least one "
							+ "(RFC 4506 §6.3); for a procedure without arguments or results declare no parameter or void");
				}
				StructCodec<Object> codec = cls.isRecord() ? record(cls, type, bindings, lookup) : fields(cls, type, bindings, lookup);
				reference.resolve(codec);
				return codec;
			}
			finally {
				this.inProgress.remove(type);
			}
		}

		private StructCodec<Object> record(Class<?> cls, Type type, Map<TypeVariable<?>, Type> bindings, MethodHandles.Lookup lookup) {
			RecordComponent[] components = cls.getRecordComponents();
			List<StructCodec.Member> members = new ArrayList<>();
			Class<?>[] rawTypes = new Class<?>[components.length];
			for (int i = 0; i < components.length; i++) {
				RecordComponent component = components[i];
				rawTypes[i] = component.getType();
				Type memberType = Types.resolve(component.getGenericType(), bindings);
				boolean optional = component.isAnnotationPresent(XdrOptional.class);
				XdrCodec<Object> codec = memberCodec(cls, "component", component.getName(), memberType, optional);
				MethodHandle getter;
				try {
					getter = lookup.unreflect(component.getAccessor());
				}
				catch (IllegalAccessException ex) {
					throw inaccessible(cls, ex);
				}
				members.add(new StructCodec.Member(component.getName(), memberType, StructCodec.kindOf(component.getType()), codec,
						StructCodec.genericGetter(getter), null));
			}
			MethodHandle constructor;
			try {
				Constructor<?> canonical = cls.getDeclaredConstructor(rawTypes);
				constructor = lookup.unreflectConstructor(canonical);
			}
			catch (NoSuchMethodException ex) {
				throw new IllegalStateException("record " + cls.getName() + " has no canonical constructor", ex);
			}
			catch (IllegalAccessException ex) {
				throw inaccessible(cls, ex);
			}
			return StructCodec.withConstructor(type, structName(cls, type), members, constructor);
		}

		private StructCodec<Object> fields(Class<?> cls, Type type, Map<TypeVariable<?>, Type> bindings, MethodHandles.Lookup lookup) {
			List<Field> fields = declaredFieldOrder(cls);
			List<StructCodec.Member> members = new ArrayList<>();
			Class<?>[] rawTypes = new Class<?>[fields.size()];
			for (int i = 0; i < fields.size(); i++) {
				Field field = fields.get(i);
				rawTypes[i] = field.getType();
				Type memberType = Types.resolve(field.getGenericType(), bindings);
				XdrCodec<Object> codec = memberCodec(cls, "field", field.getName(), memberType, field.isAnnotationPresent(XdrOptional.class));
				MethodHandle getter;
				try {
					getter = lookup.unreflectGetter(field);
				}
				catch (IllegalAccessException ex) {
					throw inaccessible(cls, ex);
				}
				members.add(new StructCodec.Member(field.getName(), memberType, StructCodec.kindOf(field.getType()), codec,
						StructCodec.genericGetter(getter), null));
			}
			String name = structName(cls, type);
			Constructor<?> allArguments = null;
			try {
				allArguments = cls.getDeclaredConstructor(rawTypes);
			}
			catch (NoSuchMethodException ex) {
				// fall back to the no-argument constructor and setters
			}
			try {
				if (allArguments != null) {
					return StructCodec.withConstructor(type, name, members, lookup.unreflectConstructor(allArguments));
				}
				Constructor<?> noArguments;
				try {
					noArguments = cls.getDeclaredConstructor();
				}
				catch (NoSuchMethodException ex) {
					throw new CodecDefinitionException(cls.getName() + " has neither a constructor taking its XDR fields in order ("
							+ describe(rawTypes) + ") nor a no-argument constructor; add one of them so it can be decoded");
				}
				List<StructCodec.Member> settable = new ArrayList<>();
				for (int i = 0; i < fields.size(); i++) {
					Field field = fields.get(i);
					if (Modifier.isFinal(field.getModifiers())) {
						throw new CodecDefinitionException("field " + cls.getName() + "." + field.getName() + " is final and no constructor "
								+ "takes the XDR fields in order (" + describe(rawTypes) + "); add that constructor or make the field non-final");
					}
					StructCodec.Member member = members.get(i);
					settable.add(new StructCodec.Member(member.name, member.type, member.kind, member.codec, member.getter,
							StructCodec.genericSetter(lookup.unreflectSetter(field))));
				}
				return StructCodec.withSetters(type, name, settable, lookup.unreflectConstructor(noArguments));
			}
			catch (IllegalAccessException ex) {
				throw inaccessible(cls, ex);
			}
		}

		@SuppressWarnings("unchecked")
		private XdrCodec<Object> memberCodec(Class<?> owner, String kind, String name, Type memberType, boolean optional) {
			try {
				TypeVariable<?> variable = Types.firstVariable(memberType);
				if (variable != null) {
					throw new CodecDefinitionException("its type " + memberType.getTypeName() + " contains type variable "
							+ variable.getName() + ", which cannot be resolved; use " + owner.getSimpleName()
							+ " with type arguments, e.g. " + owner.getSimpleName() + "<String>");
				}
				if (optional && memberType instanceof Class<?> cls && cls.isPrimitive()) {
					throw new CodecDefinitionException("@XdrOptional on primitive " + cls.getName() + "; a primitive is never null, use its box");
				}
				XdrCodec<?> codec = optional ? optionalData(inside(memberType)) : resolve(memberType);
				return (XdrCodec<Object>) codec;
			}
			catch (CodecDefinitionException ex) {
				throw new CodecDefinitionException(owner.getName() + " " + kind + " " + name + ": " + ex.getMessage(), ex);
			}
		}

	}

	private record InProgress(RecursiveReference<Object> reference, int breaks) {
	}

	private static Type canonical(Type type) {
		if (type instanceof WildcardType wildcard) {
			Type[] upper = wildcard.getUpperBounds();
			if (wildcard.getLowerBounds().length == 0 && upper.length == 1 && upper[0] != Object.class) {
				// ? extends X: every value is an X, and decoding makes X values.
				return canonical(upper[0]);
			}
			throw new CodecDefinitionException("wildcard " + wildcard.getTypeName() + " does not say what to decode; use a concrete type");
		}
		return type;
	}

	private static boolean isXdrStructClass(Class<?> cls) {
		if (cls.isAnnotationPresent(XdrFields.class)) {
			return true;
		}
		for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
			for (Field field : c.getDeclaredFields()) {
				if (field.isAnnotationPresent(XdrField.class)) {
					return true;
				}
			}
		}
		return false;
	}

	private static List<Field> declaredFieldOrder(Class<?> cls) {
		XdrFields names = cls.getAnnotation(XdrFields.class);
		List<Field> fields = new ArrayList<>();
		if (names != null) {
			for (String name : names.value()) {
				Field field = findField(cls, name);
				if (field == null) {
					throw new CodecDefinitionException("@XdrFields of " + cls.getName() + " names field '" + name
							+ "', which neither it nor a superclass declares");
				}
				if (Modifier.isStatic(field.getModifiers())) {
					throw new CodecDefinitionException("@XdrFields of " + cls.getName() + " names static field '" + name
							+ "'; only instance fields are struct members");
				}
				if (fields.contains(field)) {
					throw new CodecDefinitionException("@XdrFields of " + cls.getName() + " names field '" + name + "' twice");
				}
				fields.add(field);
			}
			return fields;
		}
		for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
			for (Field field : c.getDeclaredFields()) {
				if (field.isAnnotationPresent(XdrField.class)) {
					if (Modifier.isStatic(field.getModifiers())) {
						throw new CodecDefinitionException("@XdrField on static field " + c.getName() + "." + field.getName()
								+ "; only instance fields are struct members");
					}
					fields.add(field);
				}
			}
		}
		fields.sort(Comparator.comparingInt((Field field) -> field.getAnnotation(XdrField.class).order()));
		for (int i = 1; i < fields.size(); i++) {
			int order = fields.get(i).getAnnotation(XdrField.class).order();
			if (order == fields.get(i - 1).getAnnotation(XdrField.class).order()) {
				throw new CodecDefinitionException("fields " + fields.get(i - 1).getName() + " and " + fields.get(i).getName() + " of "
						+ cls.getName() + " both have @XdrField(order = " + order + "); orders must be distinct");
			}
		}
		return fields;
	}

	private static Field findField(Class<?> cls, String name) {
		for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
			try {
				return c.getDeclaredField(name);
			}
			catch (NoSuchFieldException ex) {
				// try the superclass
			}
		}
		return null;
	}

	private static MethodHandles.Lookup lookupIn(Class<?> cls) {
		try {
			return MethodHandles.privateLookupIn(cls, MethodHandles.lookup());
		}
		catch (IllegalAccessException ex) {
			// A named module that does not open the package: public members still work.
			return MethodHandles.publicLookup();
		}
	}

	private static CodecDefinitionException inaccessible(Class<?> cls, IllegalAccessException ex) {
		return new CodecDefinitionException("cannot access the members of " + cls.getName() + " (" + ex.getMessage()
				+ "); make them public or open its package to rpcrdma (opens " + cls.getPackageName() + ")", ex);
	}

	private static String structName(Class<?> cls, Type type) {
		StringBuilder name = new StringBuilder(cls.getSimpleName());
		if (type instanceof ParameterizedType parameterized) {
			for (Type arg : parameterized.getActualTypeArguments()) {
				Class<?> raw = Types.rawClass(arg);
				name.append('_').append((raw != null) ? raw.getSimpleName().replace("[]", "Array") : "T");
			}
		}
		return name.toString();
	}

	private static String describe(Class<?>[] types) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < types.length; i++) {
			text.append((i > 0) ? ", " : "").append(types[i].getSimpleName());
		}
		return text.toString();
	}

	private static String declarer(TypeVariable<?> variable) {
		Object declaration = variable.getGenericDeclaration();
		if (declaration instanceof Class<?> cls) {
			return cls.getName();
		}
		if (declaration instanceof java.lang.reflect.Method method) {
			return "method " + method.getDeclaringClass().getSimpleName() + "." + method.getName();
		}
		return String.valueOf(declaration);
	}

	static CodecDefinitionException unsupported(Type type) {
		return new CodecDefinitionException("no XDR codec for type " + type.getTypeName() + "; supported are primitives and their boxes, "
				+ "String, byte[], ByteBuffer, enums, records, classes annotated @XdrFields or with @XdrField fields, arrays, "
				+ "and List, Collection, Set, Map and Optional of supported types; for any other type register an XdrCodecProvider "
				+ "(CodecRegistry.builder().provider(...), or list it in META-INF/services/" + XdrCodecProvider.class.getName() + ")");
	}

	/**
	 * Configures a {@link CodecRegistry}.
	 */
	public static final class Builder {

		private CodecLimits limits = CodecLimits.DEFAULTS;

		private final List<XdrCodecProvider> providers = new ArrayList<>();

		private Builder() {
		}

		/**
		 * @param limits the bounds decoders enforce
		 * @return this builder
		 */
		public Builder limits(CodecLimits limits) {
			this.limits = Objects.requireNonNull(limits, "limits");
			return this;
		}

		/**
		 * Adds a provider, consulted after those added before it.
		 * @param provider the provider
		 * @return this builder
		 */
		public Builder provider(XdrCodecProvider provider) {
			this.providers.add(Objects.requireNonNull(provider, "provider"));
			return this;
		}

		/**
		 * Adds the providers listed in {@code META-INF/services/io.rpcrdma.service.codec.XdrCodecProvider}
		 * visible to {@code classLoader}, after those added so far.
		 * @param classLoader where to look
		 * @return this builder
		 */
		public Builder discoverProviders(ClassLoader classLoader) {
			for (XdrCodecProvider provider : ServiceLoader.load(XdrCodecProvider.class, classLoader)) {
				this.providers.add(provider);
			}
			return this;
		}

		/** @return the registry */
		public CodecRegistry build() {
			return new CodecRegistry(this.limits, this.providers);
		}

	}

}
