package io.rpcrdma.service.codec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * A Java enum as an XDR {@code enum} (RFC 4506 §4.3): each constant's {@link XdrValue}, or
 * without those its position in declaration order (0, 1, …). Decoding a value no constant
 * has is rejected.
 *
 * @param <E> the enum
 */
final class EnumCodec<E extends Enum<E>> implements XdrCodec<E> {

	private final Class<E> type;

	private final E[] constants;

	/** Wire value by ordinal. */
	private final int[] values;

	/** Wire values ascending, and the constant of each, for decoding by binary search. */
	private final int[] sortedValues;

	private final E[] bySortedValue;

	private final boolean dense;

	EnumCodec(Class<E> type) {
		this.type = type;
		this.constants = type.getEnumConstants();
		if (this.constants.length == 0) {
			throw new CodecDefinitionException("enum " + type.getName() + " has no constants, but an XDR enum needs at least one (RFC 4506 §6.3)");
		}
		this.values = new int[this.constants.length];
		int annotated = 0;
		for (E constant : this.constants) {
			XdrValue value;
			try {
				value = type.getField(constant.name()).getAnnotation(XdrValue.class);
			}
			catch (NoSuchFieldException ex) {
				throw new IllegalStateException(ex);
			}
			if (value != null) {
				annotated++;
				this.values[constant.ordinal()] = value.value();
			}
			else {
				this.values[constant.ordinal()] = constant.ordinal();
			}
		}
		if (annotated != 0 && annotated != this.constants.length) {
			throw new CodecDefinitionException("enum " + type.getName() + " gives @XdrValue to " + annotated + " of its "
					+ this.constants.length + " constants; give every constant a value or none (then they are numbered in declaration order)");
		}
		Integer[] order = new Integer[this.constants.length];
		for (int i = 0; i < order.length; i++) {
			order[i] = i;
		}
		Arrays.sort(order, (a, b) -> Integer.compare(this.values[a], this.values[b]));
		this.sortedValues = new int[order.length];
		this.bySortedValue = Arrays.copyOf(this.constants, order.length);
		for (int i = 0; i < order.length; i++) {
			this.sortedValues[i] = this.values[order[i]];
			this.bySortedValue[i] = this.constants[order[i]];
			if (i > 0 && this.sortedValues[i] == this.sortedValues[i - 1]) {
				throw new CodecDefinitionException("enum " + type.getName() + " gives @XdrValue(" + this.sortedValues[i] + ") to both "
						+ this.bySortedValue[i - 1].name() + " and " + this.bySortedValue[i].name() + "; XDR enum values must be distinct");
			}
		}
		boolean dense = true;
		for (int i = 0; i < this.values.length; i++) {
			dense &= this.values[i] == i;
		}
		this.dense = dense;
	}

	@Override
	public void encode(E value, XdrEncoder out) {
		if (value == null) {
			throw Nulls.rejected("enum " + this.type.getSimpleName());
		}
		out.writeInt(this.values[value.ordinal()]);
	}

	@Override
	public E decode(XdrDecoder in) {
		int value = in.readInt();
		if (this.dense) {
			if (value >= 0 && value < this.constants.length) {
				return this.constants[value];
			}
		}
		else {
			int at = Arrays.binarySearch(this.sortedValues, value);
			if (at >= 0) {
				return this.bySortedValue[at];
			}
		}
		throw new XdrInvalidValueException("XDR enum value " + value + " is not a constant of " + this.type.getName());
	}

	@Override
	public int encodedSize(E value) {
		return Xdr.UNIT;
	}

	@Override
	public XdrShape shape() {
		List<XdrShape.Constant> constants = new ArrayList<>();
		for (E constant : this.constants) {
			constants.add(new XdrShape.Constant(constant.name(), this.values[constant.ordinal()]));
		}
		return new XdrShape.Enumeration(this.type, this.type.getSimpleName(), List.copyOf(constants));
	}

	@Override
	public String toString() {
		return "enum " + this.type.getName();
	}

}
