package io.rpcrdma.service.codec;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * Codecs for Java primitives (RFC 4506 §4.1–§4.7): {@code boolean} as {@code bool};
 * {@code byte}, {@code short} and {@code char} widened to {@code int} (decoding rejects
 * values outside the Java type's range rather than truncating them); {@code int};
 * {@code long} as {@code hyper}; {@code float}; {@code double}.
 */
public final class ScalarCodecs {

	/** {@code bool}. */
	public static final XdrCodec<Boolean> BOOLEAN = new Scalar<>("bool", 4) {
		@Override
		public void encode(Boolean value, XdrEncoder out) {
			out.writeBoolean(require(value));
		}

		@Override
		public Boolean decode(XdrDecoder in) {
			return in.readBoolean();
		}
	};

	/** {@code byte} as {@code int}. */
	public static final XdrCodec<Byte> BYTE = new Scalar<>("int", 4) {
		@Override
		public void encode(Byte value, XdrEncoder out) {
			out.writeInt(require(value));
		}

		@Override
		public Byte decode(XdrDecoder in) {
			return readByte(in);
		}
	};

	/** {@code short} as {@code int}. */
	public static final XdrCodec<Short> SHORT = new Scalar<>("int", 4) {
		@Override
		public void encode(Short value, XdrEncoder out) {
			out.writeInt(require(value));
		}

		@Override
		public Short decode(XdrDecoder in) {
			return readShort(in);
		}
	};

	/** {@code char} as {@code int} in [0, 65535]. */
	public static final XdrCodec<Character> CHAR = new Scalar<>("int", 4) {
		@Override
		public void encode(Character value, XdrEncoder out) {
			out.writeInt(require(value));
		}

		@Override
		public Character decode(XdrDecoder in) {
			return readChar(in);
		}
	};

	/** {@code int}. */
	public static final XdrCodec<Integer> INT = new Scalar<>("int", 4) {
		@Override
		public void encode(Integer value, XdrEncoder out) {
			out.writeInt(require(value));
		}

		@Override
		public Integer decode(XdrDecoder in) {
			return in.readInt();
		}
	};

	/** {@code long} as {@code hyper}. */
	public static final XdrCodec<Long> LONG = new Scalar<>("hyper", 8) {
		@Override
		public void encode(Long value, XdrEncoder out) {
			out.writeHyper(require(value));
		}

		@Override
		public Long decode(XdrDecoder in) {
			return in.readHyper();
		}
	};

	/** {@code float}. */
	public static final XdrCodec<Float> FLOAT = new Scalar<>("float", 4) {
		@Override
		public void encode(Float value, XdrEncoder out) {
			out.writeFloat(require(value));
		}

		@Override
		public Float decode(XdrDecoder in) {
			return in.readFloat();
		}
	};

	/** {@code double}. */
	public static final XdrCodec<Double> DOUBLE = new Scalar<>("double", 8) {
		@Override
		public void encode(Double value, XdrEncoder out) {
			out.writeDouble(require(value));
		}

		@Override
		public Double decode(XdrDecoder in) {
			return in.readDouble();
		}
	};

	private ScalarCodecs() {
	}

	/**
	 * @param primitive a primitive class other than {@code void}
	 * @return its codec
	 */
	static XdrCodec<?> forPrimitive(Class<?> primitive) {
		if (primitive == boolean.class) {
			return BOOLEAN;
		}
		if (primitive == byte.class) {
			return BYTE;
		}
		if (primitive == short.class) {
			return SHORT;
		}
		if (primitive == char.class) {
			return CHAR;
		}
		if (primitive == int.class) {
			return INT;
		}
		if (primitive == long.class) {
			return LONG;
		}
		if (primitive == float.class) {
			return FLOAT;
		}
		if (primitive == double.class) {
			return DOUBLE;
		}
		throw new IllegalArgumentException("not a primitive with an XDR codec: " + primitive);
	}

	/**
	 * @param box a box class such as {@link Integer}
	 * @return its primitive, or {@code null} when {@code box} is not a box
	 */
	static Class<?> unbox(Class<?> box) {
		if (box == Boolean.class) {
			return boolean.class;
		}
		if (box == Byte.class) {
			return byte.class;
		}
		if (box == Short.class) {
			return short.class;
		}
		if (box == Character.class) {
			return char.class;
		}
		if (box == Integer.class) {
			return int.class;
		}
		if (box == Long.class) {
			return long.class;
		}
		if (box == Float.class) {
			return float.class;
		}
		if (box == Double.class) {
			return double.class;
		}
		return null;
	}

	static byte readByte(XdrDecoder in) {
		int value = in.readInt();
		if (value != (byte) value) {
			throw new XdrInvalidValueException("XDR int " + value + " is outside the range of a Java byte [-128, 127]");
		}
		return (byte) value;
	}

	static short readShort(XdrDecoder in) {
		int value = in.readInt();
		if (value != (short) value) {
			throw new XdrInvalidValueException("XDR int " + value + " is outside the range of a Java short [-32768, 32767]");
		}
		return (short) value;
	}

	static char readChar(XdrDecoder in) {
		int value = in.readInt();
		if (value != (char) value) {
			throw new XdrInvalidValueException("XDR int " + value + " is outside the range of a Java char [0, 65535]");
		}
		return (char) value;
	}

	private static <V> V require(V value) {
		if (value == null) {
			throw new XdrInvalidValueException("null cannot be encoded as a primitive XDR value; use a boxed type or Optional for a value that may be absent");
		}
		return value;
	}

	private abstract static class Scalar<T> implements XdrCodec<T> {

		private final XdrShape.Scalar shape;

		private final int size;

		Scalar(String xdrName, int size) {
			this.shape = new XdrShape.Scalar(xdrName);
			this.size = size;
		}

		@Override
		public int encodedSize(T value) {
			return this.size;
		}

		@Override
		public int minEncodedSize() {
			return this.size;
		}

		@Override
		public XdrShape shape() {
			return this.shape;
		}

		@Override
		public String toString() {
			return this.shape.xdrName();
		}

	}

}
