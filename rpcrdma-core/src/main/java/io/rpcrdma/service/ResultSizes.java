package io.rpcrdma.service;

import java.util.HashSet;
import java.util.Set;

import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.service.codec.XdrShape;

/**
 * The largest XDR encoding a codec can produce, from its {@link XdrShape}, so a client makes
 * exactly as much room for a reply as its result can need: bounded results never cost a Reply
 * chunk they cannot use. Recursive, undescribed and unbounded shapes have no bound.
 */
final class ResultSizes {

	/** No bound (also what any bound above 2 GiB is reported as). */
	static final long UNBOUNDED = Long.MAX_VALUE;

	private ResultSizes() {
	}

	/**
	 * @param codec a codec
	 * @return the most bytes it encodes, or {@link #UNBOUNDED}
	 */
	static long maxEncodedSize(XdrCodec<?> codec) {
		long size = max(codec, new HashSet<>());
		return (size > Integer.MAX_VALUE) ? UNBOUNDED : size;
	}

	private static long max(XdrCodec<?> codec, Set<XdrCodec<?>> visiting) {
		if (!visiting.add(codec)) {
			return UNBOUNDED;
		}
		try {
			XdrShape shape = codec.shape();
			if (shape instanceof XdrShape.Void) {
				return 0;
			}
			if (shape instanceof XdrShape.Scalar scalar) {
				return scalar.xdrName().contains("hyper") || scalar.xdrName().equals("double") ? 8 : 4;
			}
			if (shape instanceof XdrShape.Enumeration) {
				return 4;
			}
			if (shape instanceof XdrShape.StringOf string) {
				return counted(string.maxBytes(), 1);
			}
			if (shape instanceof XdrShape.Opaque opaque) {
				return counted(opaque.maxBytes(), 1);
			}
			if (shape instanceof XdrShape.OptionalOf optional) {
				return add(4, max(optional.element(), visiting));
			}
			if (shape instanceof XdrShape.ArrayOf array) {
				return counted(array.maxCount(), max(array.element(), visiting));
			}
			if (shape instanceof XdrShape.MapOf map) {
				return counted(map.maxCount(), add(max(map.key(), visiting), max(map.value(), visiting)));
			}
			if (shape instanceof XdrShape.Struct struct) {
				long total = 0;
				for (XdrShape.Member member : struct.members()) {
					total = add(total, max(member.codec(), visiting));
				}
				return total;
			}
			return UNBOUNDED;
		}
		finally {
			visiting.remove(codec);
		}
	}

	/** A count word and up to {@code count} elements, padded to XDR's unit. */
	private static long counted(int count, long element) {
		if (count < 0 || element == UNBOUNDED) {
			return UNBOUNDED;
		}
		long bytes = count * element;
		if (bytes / Math.max(1, element) != count || bytes > Integer.MAX_VALUE) {
			return UNBOUNDED;
		}
		return 4 + ((bytes + 3) & ~3L);
	}

	private static long add(long a, long b) {
		return (a == UNBOUNDED || b == UNBOUNDED || a + b > Integer.MAX_VALUE) ? UNBOUNDED : a + b;
	}

}
