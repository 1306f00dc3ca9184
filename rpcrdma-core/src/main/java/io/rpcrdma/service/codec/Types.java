package io.rpcrdma.service.codec;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Resolution of generic types: which actual type each type variable stands for, given a
 * parameterized use of a class or an interface's generic supertypes.
 */
public final class Types {

	private Types() {
	}

	/**
	 * Collects what every type variable of {@code type}'s class and of all its generic
	 * superclasses and superinterfaces stands for.
	 * @param type a class or parameterized type
	 * @return bindings from type variables to (resolved) actual types
	 */
	public static Map<TypeVariable<?>, Type> bindings(Type type) {
		Map<TypeVariable<?>, Type> bindings = new HashMap<>();
		collect(type, bindings);
		return bindings;
	}

	private static void collect(Type type, Map<TypeVariable<?>, Type> bindings) {
		Class<?> raw = rawClass(type);
		if (raw == null) {
			return;
		}
		if (type instanceof ParameterizedType parameterized) {
			TypeVariable<?>[] variables = raw.getTypeParameters();
			Type[] actual = parameterized.getActualTypeArguments();
			for (int i = 0; i < variables.length && i < actual.length; i++) {
				bindings.put(variables[i], resolve(actual[i], bindings));
			}
		}
		if (raw.getGenericSuperclass() != null) {
			collect(resolve(raw.getGenericSuperclass(), bindings), bindings);
		}
		for (Type superInterface : raw.getGenericInterfaces()) {
			collect(resolve(superInterface, bindings), bindings);
		}
	}

	/**
	 * Replaces the type variables in {@code type} that {@code bindings} knows; others stay.
	 * @param type a type
	 * @param bindings from {@link #bindings(Type)}
	 * @return the resolved type
	 */
	public static Type resolve(Type type, Map<TypeVariable<?>, Type> bindings) {
		if (type instanceof TypeVariable<?> variable) {
			Type bound = bindings.get(variable);
			return (bound != null) ? bound : variable;
		}
		if (type instanceof ParameterizedType parameterized) {
			Type[] args = parameterized.getActualTypeArguments().clone();
			boolean changed = false;
			for (int i = 0; i < args.length; i++) {
				Type resolved = resolve(args[i], bindings);
				changed |= resolved != args[i];
				args[i] = resolved;
			}
			return changed ? new Parameterized((Class<?>) parameterized.getRawType(), parameterized.getOwnerType(), args) : type;
		}
		if (type instanceof GenericArrayType array) {
			Type component = resolve(array.getGenericComponentType(), bindings);
			if (component instanceof Class<?> cls) {
				return java.lang.reflect.Array.newInstance(cls, 0).getClass();
			}
			return (component != array.getGenericComponentType()) ? new GenericArray(component) : type;
		}
		if (type instanceof WildcardType wildcard) {
			Type[] upper = wildcard.getUpperBounds().clone();
			Type[] lower = wildcard.getLowerBounds().clone();
			for (int i = 0; i < upper.length; i++) {
				upper[i] = resolve(upper[i], bindings);
			}
			for (int i = 0; i < lower.length; i++) {
				lower[i] = resolve(lower[i], bindings);
			}
			return new Wildcard(upper, lower);
		}
		return type;
	}

	/**
	 * @param type a type
	 * @return its erasure, or {@code null} for a type variable or wildcard
	 */
	public static Class<?> rawClass(Type type) {
		if (type instanceof Class<?> cls) {
			return cls;
		}
		if (type instanceof ParameterizedType parameterized) {
			return (Class<?>) parameterized.getRawType();
		}
		if (type instanceof GenericArrayType array) {
			Class<?> component = rawClass(array.getGenericComponentType());
			return (component != null) ? java.lang.reflect.Array.newInstance(component, 0).getClass() : null;
		}
		return null;
	}

	/**
	 * @param type a type
	 * @return the first type variable it still contains, or {@code null}
	 */
	public static TypeVariable<?> firstVariable(Type type) {
		if (type instanceof TypeVariable<?> variable) {
			return variable;
		}
		if (type instanceof ParameterizedType parameterized) {
			for (Type arg : parameterized.getActualTypeArguments()) {
				TypeVariable<?> found = firstVariable(arg);
				if (found != null) {
					return found;
				}
			}
		}
		if (type instanceof GenericArrayType array) {
			return firstVariable(array.getGenericComponentType());
		}
		if (type instanceof WildcardType wildcard) {
			for (Type bound : wildcard.getUpperBounds()) {
				TypeVariable<?> found = firstVariable(bound);
				if (found != null) {
					return found;
				}
			}
			for (Type bound : wildcard.getLowerBounds()) {
				TypeVariable<?> found = firstVariable(bound);
				if (found != null) {
					return found;
				}
			}
		}
		return null;
	}

	/** Equal to (and hashing like) the JDK's own parameterized types, so caches keyed by Type agree. */
	private static final class Parameterized implements ParameterizedType {

		private final Class<?> raw;

		private final Type owner;

		private final Type[] args;

		Parameterized(Class<?> raw, Type owner, Type[] args) {
			this.raw = raw;
			this.owner = owner;
			this.args = args;
		}

		@Override
		public Type[] getActualTypeArguments() {
			return this.args.clone();
		}

		@Override
		public Type getRawType() {
			return this.raw;
		}

		@Override
		public Type getOwnerType() {
			return this.owner;
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof ParameterizedType that && this.raw.equals(that.getRawType())
					&& Objects.equals(this.owner, that.getOwnerType()) && Arrays.equals(this.args, that.getActualTypeArguments());
		}

		@Override
		public int hashCode() {
			return Arrays.hashCode(this.args) ^ Objects.hashCode(this.owner) ^ Objects.hashCode(this.raw);
		}

		@Override
		public String toString() {
			StringBuilder text = new StringBuilder(this.raw.getName()).append('<');
			for (int i = 0; i < this.args.length; i++) {
				text.append((i > 0) ? ", " : "").append(this.args[i].getTypeName());
			}
			return text.append('>').toString();
		}

	}

	private static final class GenericArray implements GenericArrayType {

		private final Type component;

		GenericArray(Type component) {
			this.component = component;
		}

		@Override
		public Type getGenericComponentType() {
			return this.component;
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof GenericArrayType that && this.component.equals(that.getGenericComponentType());
		}

		@Override
		public int hashCode() {
			return Objects.hashCode(this.component);
		}

		@Override
		public String toString() {
			return this.component.getTypeName() + "[]";
		}

	}

	private static final class Wildcard implements WildcardType {

		private final Type[] upper;

		private final Type[] lower;

		Wildcard(Type[] upper, Type[] lower) {
			this.upper = upper;
			this.lower = lower;
		}

		@Override
		public Type[] getUpperBounds() {
			return this.upper.clone();
		}

		@Override
		public Type[] getLowerBounds() {
			return this.lower.clone();
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof WildcardType that && Arrays.equals(this.upper, that.getUpperBounds())
					&& Arrays.equals(this.lower, that.getLowerBounds());
		}

		@Override
		public int hashCode() {
			return Arrays.hashCode(this.upper) ^ Arrays.hashCode(this.lower);
		}

		@Override
		public String toString() {
			if (this.lower.length > 0) {
				return "? super " + this.lower[0].getTypeName();
			}
			return (this.upper.length == 0 || this.upper[0] == Object.class) ? "?" : "? extends " + this.upper[0].getTypeName();
		}

	}

}
