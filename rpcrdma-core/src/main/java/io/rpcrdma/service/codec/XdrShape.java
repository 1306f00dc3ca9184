package io.rpcrdma.service.codec;

import java.lang.reflect.Type;
import java.util.List;

/**
 * What a codec writes, in terms of the XDR language (RFC 4506 §6), so an rpcgen-compatible
 * {@code .x} file can be exported. Nested shapes are reached through their codecs so that
 * recursive types (a struct holding an optional pointer to itself) describe themselves
 * without an infinite structure.
 */
public sealed interface XdrShape {

	/**
	 * A built-in scalar: {@code int}, {@code unsigned int}, {@code hyper}, {@code unsigned hyper},
	 * {@code bool}, {@code float} or {@code double}.
	 * @param xdrName the XDR type name
	 */
	record Scalar(String xdrName) implements XdrShape {
	}

	/**
	 * {@code string<max>} (RFC 4506 §4.11).
	 * @param maxBytes the bound, {@link Integer#MAX_VALUE} for none
	 */
	record StringOf(int maxBytes) implements XdrShape {
	}

	/**
	 * {@code opaque<max>} (RFC 4506 §4.10).
	 * @param maxBytes the bound, {@link Integer#MAX_VALUE} for none
	 */
	record Opaque(int maxBytes) implements XdrShape {
	}

	/**
	 * Variable-length array {@code T<max>} (RFC 4506 §4.13).
	 * @param element the element's codec
	 * @param maxCount the bound, {@link Integer#MAX_VALUE} for none
	 */
	record ArrayOf(XdrCodec<?> element, int maxCount) implements XdrShape {
	}

	/**
	 * Optional-data {@code T *} (RFC 4506 §4.19).
	 * @param element the element's codec
	 */
	record OptionalOf(XdrCodec<?> element) implements XdrShape {
	}

	/**
	 * A map: an array of key/value structs.
	 * @param key the key codec
	 * @param value the value codec
	 * @param maxCount the bound, {@link Integer#MAX_VALUE} for none
	 */
	record MapOf(XdrCodec<?> key, XdrCodec<?> value, int maxCount) implements XdrShape {
	}

	/**
	 * A struct (RFC 4506 §4.14).
	 * @param javaType the Java type it stands for, which identifies it
	 * @param name its preferred name
	 * @param members the members in wire order
	 */
	record Struct(Type javaType, String name, List<Member> members) implements XdrShape {
	}

	/**
	 * A struct member.
	 * @param name its name
	 * @param codec its codec
	 */
	record Member(String name, XdrCodec<?> codec) {
	}

	/**
	 * An enumeration (RFC 4506 §4.3).
	 * @param javaType the Java enum
	 * @param name its preferred name
	 * @param constants the constants with their values
	 */
	record Enumeration(Type javaType, String name, List<Constant> constants) implements XdrShape {
	}

	/**
	 * An enumeration constant.
	 * @param name its Java name
	 * @param value its XDR value
	 */
	record Constant(String name, int value) {
	}

	/** {@code void} (RFC 4506 §4.16): no data, for procedures without a result. */
	record Void() implements XdrShape {
	}

	/**
	 * A codec that did not describe itself.
	 * @param codecClass the codec's class, for the message
	 */
	record Undescribed(String codecClass) implements XdrShape {
	}

}
