package io.rpcrdma.service.codec;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * A record or a plain class as an XDR struct (RFC 4506 §4.14): its members one after
 * another, in declaration order for a record and in the declared order ({@link XdrFields} or
 * {@link XdrField}) for a class.
 * <p>
 * Access goes through method handles prepared once: a getter per member, typed with the
 * member's primitive type so no value is boxed; decoding calls one handle that reads every
 * member from the decoder in order and passes them straight to the constructor (built with
 * {@link MethodHandles#foldArguments(MethodHandle, int, MethodHandle)}), or, for a class
 * without a matching constructor, the no-argument constructor followed by one setter per
 * member. Decoding a small record of primitives allocates the record and nothing else.
 *
 * @param <T> the Java type
 */
final class StructCodec<T> implements XdrCodec<T> {

	enum Kind {
		BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE, REFERENCE
	}

	/**
	 * One member.
	 */
	static final class Member {

		final String name;

		final Type type;

		final Kind kind;

		final XdrCodec<Object> codec;

		/** {@code (Object)P} for a primitive member, else {@code (Object)Object}. */
		final MethodHandle getter;

		/** {@code (Object,P)void}, or null when decoding goes through a constructor. */
		final MethodHandle setter;

		Member(String name, Type type, Kind kind, XdrCodec<Object> codec, MethodHandle getter, MethodHandle setter) {
			this.name = name;
			this.type = type;
			this.kind = kind;
			this.codec = codec;
			this.getter = getter;
			this.setter = setter;
		}

	}

	private final Type javaType;

	private final String name;

	private final Member[] members;

	/** {@code (XdrDecoder)Object}: reads every member and constructs; or null. */
	private final MethodHandle reader;

	/** {@code ()Object}: the no-argument constructor, when {@link #reader} is null. */
	private final MethodHandle creator;

	private final int minSize;

	private StructCodec(Type javaType, String name, Member[] members, MethodHandle reader, MethodHandle creator) {
		this.javaType = javaType;
		this.name = name;
		this.members = members;
		this.reader = reader;
		this.creator = creator;
		int min = 0;
		for (Member member : members) {
			min += (member.kind == Kind.REFERENCE) ? member.codec.minEncodedSize() : primitiveSize(member.kind);
		}
		this.minSize = Math.max(4, min);
	}

	/**
	 * A codec that decodes through a constructor taking every member in order.
	 * @param constructor {@code (P0, P1, ...)T}
	 */
	static <T> StructCodec<T> withConstructor(Type javaType, String name, List<Member> members, MethodHandle constructor) {
		MethodHandle handle = MethodHandles.dropArguments(constructor, members.size(), XdrDecoder.class);
		for (int i = members.size() - 1; i >= 0; i--) {
			// Folding from the last member outwards makes the outermost adapter read member
			// 0 first, so members are read in wire order.
			handle = MethodHandles.foldArguments(handle, i, readerOf(members.get(i), constructor.type().parameterType(i)));
		}
		MethodHandle reader = handle.asType(MethodType.methodType(Object.class, XdrDecoder.class));
		return new StructCodec<>(javaType, name, members.toArray(new Member[0]), reader, null);
	}

	/**
	 * A codec that decodes by the no-argument constructor and a setter per member.
	 * @param creator {@code ()T}
	 */
	static <T> StructCodec<T> withSetters(Type javaType, String name, List<Member> members, MethodHandle creator) {
		return new StructCodec<>(javaType, name, members.toArray(new Member[0]), null,
				creator.asType(MethodType.methodType(Object.class)));
	}

	static Kind kindOf(Class<?> type) {
		if (type == boolean.class) {
			return Kind.BOOLEAN;
		}
		if (type == byte.class) {
			return Kind.BYTE;
		}
		if (type == short.class) {
			return Kind.SHORT;
		}
		if (type == char.class) {
			return Kind.CHAR;
		}
		if (type == int.class) {
			return Kind.INT;
		}
		if (type == long.class) {
			return Kind.LONG;
		}
		if (type == float.class) {
			return Kind.FLOAT;
		}
		if (type == double.class) {
			return Kind.DOUBLE;
		}
		return Kind.REFERENCE;
	}

	/**
	 * Adapts a getter {@code (T)P} to {@code (Object)P} for primitives or {@code (Object)Object}.
	 */
	static MethodHandle genericGetter(MethodHandle getter) {
		Class<?> result = getter.type().returnType();
		return getter.asType(MethodType.methodType(result.isPrimitive() ? result : Object.class, Object.class));
	}

	/**
	 * Adapts a setter {@code (T,P)void} to {@code (Object,P)void} or {@code (Object,Object)void}.
	 */
	static MethodHandle genericSetter(MethodHandle setter) {
		Class<?> value = setter.type().parameterType(1);
		return setter.asType(MethodType.methodType(void.class, Object.class, value.isPrimitive() ? value : Object.class));
	}

	private static MethodHandle readerOf(Member member, Class<?> parameterType) {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			switch (member.kind) {
				case BOOLEAN:
					return lookup.findVirtual(XdrDecoder.class, "readBoolean", MethodType.methodType(boolean.class));
				case BYTE:
					return lookup.findStatic(ScalarCodecs.class, "readByte", MethodType.methodType(byte.class, XdrDecoder.class));
				case SHORT:
					return lookup.findStatic(ScalarCodecs.class, "readShort", MethodType.methodType(short.class, XdrDecoder.class));
				case CHAR:
					return lookup.findStatic(ScalarCodecs.class, "readChar", MethodType.methodType(char.class, XdrDecoder.class));
				case INT:
					return lookup.findVirtual(XdrDecoder.class, "readInt", MethodType.methodType(int.class));
				case LONG:
					return lookup.findVirtual(XdrDecoder.class, "readHyper", MethodType.methodType(long.class));
				case FLOAT:
					return lookup.findVirtual(XdrDecoder.class, "readFloat", MethodType.methodType(float.class));
				case DOUBLE:
					return lookup.findVirtual(XdrDecoder.class, "readDouble", MethodType.methodType(double.class));
				default:
					return lookup.findVirtual(XdrCodec.class, "decode", MethodType.methodType(Object.class, XdrDecoder.class))
						.bindTo(member.codec)
						.asType(MethodType.methodType(parameterType, XdrDecoder.class));
			}
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static int primitiveSize(Kind kind) {
		return (kind == Kind.LONG || kind == Kind.DOUBLE) ? 8 : 4;
	}

	@Override
	public void encode(T value, XdrEncoder out) {
		Object target = value;
		if (target == null) {
			throw Nulls.rejected("struct " + this.name);
		}
		try {
			for (Member member : this.members) {
				switch (member.kind) {
					case BOOLEAN -> out.writeBoolean((boolean) member.getter.invokeExact(target));
					case BYTE -> out.writeInt((byte) member.getter.invokeExact(target));
					case SHORT -> out.writeInt((short) member.getter.invokeExact(target));
					case CHAR -> out.writeInt((char) member.getter.invokeExact(target));
					case INT -> out.writeInt((int) member.getter.invokeExact(target));
					case LONG -> out.writeHyper((long) member.getter.invokeExact(target));
					case FLOAT -> out.writeFloat((float) member.getter.invokeExact(target));
					case DOUBLE -> out.writeDouble((double) member.getter.invokeExact(target));
					default -> member.codec.encode((Object) member.getter.invokeExact(target), out);
				}
			}
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException("reading the members of " + this.name + " failed", ex);
		}
	}

	@Override
	@SuppressWarnings("unchecked")
	public T decode(XdrDecoder in) {
		try {
			if (this.reader != null) {
				return (T) (Object) this.reader.invokeExact(in);
			}
			Object target = (Object) this.creator.invokeExact();
			for (Member member : this.members) {
				switch (member.kind) {
					case BOOLEAN -> member.setter.invokeExact(target, in.readBoolean());
					case BYTE -> member.setter.invokeExact(target, ScalarCodecs.readByte(in));
					case SHORT -> member.setter.invokeExact(target, ScalarCodecs.readShort(in));
					case CHAR -> member.setter.invokeExact(target, ScalarCodecs.readChar(in));
					case INT -> member.setter.invokeExact(target, in.readInt());
					case LONG -> member.setter.invokeExact(target, in.readHyper());
					case FLOAT -> member.setter.invokeExact(target, in.readFloat());
					case DOUBLE -> member.setter.invokeExact(target, in.readDouble());
					default -> member.setter.invokeExact(target, member.codec.decode(in));
				}
			}
			return (T) target;
		}
		catch (XdrException | Error ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			// A record's compact constructor validating its components: the peer's values
			// are not acceptable, which is an invalid-value error of the data, not a bug here.
			throw new XdrInvalidValueException("decoded members were rejected by " + this.javaType.getTypeName() + ": " + ex);
		}
		catch (Throwable ex) {
			throw new XdrInvalidValueException("constructing " + this.javaType.getTypeName() + " from decoded members failed: " + ex);
		}
	}

	@Override
	public int encodedSize(T value) {
		Object target = value;
		if (target == null) {
			throw Nulls.rejected("struct " + this.name);
		}
		int size = 0;
		try {
			for (Member member : this.members) {
				if (member.kind == Kind.REFERENCE) {
					size += member.codec.encodedSize((Object) member.getter.invokeExact(target));
				}
				else {
					size += primitiveSize(member.kind);
				}
			}
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException("reading the members of " + this.name + " failed", ex);
		}
		return size;
	}

	@Override
	public int minEncodedSize() {
		return this.minSize;
	}

	@Override
	public XdrShape shape() {
		List<XdrShape.Member> shapeMembers = new ArrayList<>();
		for (Member member : this.members) {
			XdrCodec<?> codec = (member.kind == Kind.REFERENCE) ? member.codec : ScalarCodecs.forPrimitive(Types.rawClass(member.type));
			shapeMembers.add(new XdrShape.Member(member.name, codec));
		}
		return new XdrShape.Struct(this.javaType, this.name, List.copyOf(shapeMembers));
	}

	@Override
	public String toString() {
		return "struct " + this.javaType.getTypeName();
	}

}
