package io.rpcrdma.service.codec;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Arrays of primitives other than {@code byte} (which is opaque data) as variable-length
 * arrays (RFC 4506 §4.13) of their scalar, without boxing.
 */
final class PrimitiveArrayCodec implements XdrCodec<Object> {

	private final Class<?> component;

	private final int elementSize;

	private final int maxCount;

	PrimitiveArrayCodec(Class<?> component, int maxCount) {
		this.component = component;
		this.elementSize = (component == long.class || component == double.class) ? 8 : 4;
		this.maxCount = maxCount;
	}

	@Override
	public void encode(Object value, XdrEncoder out) {
		int length = java.lang.reflect.Array.getLength(Nulls.require(value, "array"));
		CollectionCodecs.checkCount(length, this.maxCount, "array");
		out.writeInt(length);
		if (value instanceof int[] ints) {
			for (int v : ints) {
				out.writeInt(v);
			}
		}
		else if (value instanceof long[] longs) {
			for (long v : longs) {
				out.writeHyper(v);
			}
		}
		else if (value instanceof boolean[] booleans) {
			for (boolean v : booleans) {
				out.writeBoolean(v);
			}
		}
		else if (value instanceof short[] shorts) {
			for (short v : shorts) {
				out.writeInt(v);
			}
		}
		else if (value instanceof char[] chars) {
			for (char v : chars) {
				out.writeInt(v);
			}
		}
		else if (value instanceof float[] floats) {
			for (float v : floats) {
				out.writeFloat(v);
			}
		}
		else {
			for (double v : (double[]) value) {
				out.writeDouble(v);
			}
		}
	}

	@Override
	public Object decode(XdrDecoder in) {
		int count = in.readArrayCount("array", this.maxCount, this.elementSize);
		if (this.component == int.class) {
			int[] values = new int[count];
			for (int i = 0; i < count; i++) {
				values[i] = in.readInt();
			}
			return values;
		}
		if (this.component == long.class) {
			long[] values = new long[count];
			for (int i = 0; i < count; i++) {
				values[i] = in.readHyper();
			}
			return values;
		}
		if (this.component == boolean.class) {
			boolean[] values = new boolean[count];
			for (int i = 0; i < count; i++) {
				values[i] = in.readBoolean();
			}
			return values;
		}
		if (this.component == short.class) {
			short[] values = new short[count];
			for (int i = 0; i < count; i++) {
				values[i] = ScalarCodecs.readShort(in);
			}
			return values;
		}
		if (this.component == char.class) {
			char[] values = new char[count];
			for (int i = 0; i < count; i++) {
				values[i] = ScalarCodecs.readChar(in);
			}
			return values;
		}
		if (this.component == float.class) {
			float[] values = new float[count];
			for (int i = 0; i < count; i++) {
				values[i] = in.readFloat();
			}
			return values;
		}
		double[] values = new double[count];
		for (int i = 0; i < count; i++) {
			values[i] = in.readDouble();
		}
		return values;
	}

	@Override
	public int encodedSize(Object value) {
		return Xdr.UNIT + this.elementSize * java.lang.reflect.Array.getLength(Nulls.require(value, "array"));
	}

	@Override
	public XdrShape shape() {
		return new XdrShape.ArrayOf(ScalarCodecs.forPrimitive(this.component), Integer.MAX_VALUE);
	}

	@Override
	public String toString() {
		return this.component.getName() + "[]";
	}

}
