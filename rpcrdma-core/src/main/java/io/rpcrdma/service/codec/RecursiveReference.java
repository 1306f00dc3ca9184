package io.rpcrdma.service.codec;

import java.lang.reflect.Type;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;
import io.rpcrdma.xdr.XdrLimitExceededException;

/**
 * Stands for a type whose codec is still being built when one of its own members refers to
 * it (a linked-list record pointing to itself); resolved once the type's codec exists.
 * <p>
 * Every pass through a reference is one level of recursion, and the number of levels on the
 * current thread is bounded by {@link CodecLimits#maxDepth()}: a hostile, deeply nested input
 * fails with {@link XdrLimitExceededException} long before the thread's stack would
 * overflow, and encoding a cyclic object graph fails instead of looping.
 *
 * @param <T> the type
 */
final class RecursiveReference<T> implements XdrCodec<T> {

	private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

	private final Type type;

	private final int maxDepth;

	private volatile XdrCodec<T> target;

	RecursiveReference(Type type, int maxDepth) {
		this.type = type;
		this.maxDepth = maxDepth;
	}

	void resolve(XdrCodec<T> codec) {
		this.target = codec;
	}

	private XdrCodec<T> target() {
		XdrCodec<T> codec = this.target;
		if (codec == null) {
			throw new IllegalStateException("codec of " + this.type.getTypeName() + " used before it was built");
		}
		return codec;
	}

	@Override
	public void encode(T value, XdrEncoder out) {
		int[] depth = DEPTH.get();
		if (depth[0] >= this.maxDepth) {
			throw new XdrInvalidValueException("value of " + this.type.getTypeName() + " nests deeper than the limit of " + this.maxDepth
					+ " levels (is the object graph cyclic?); the peer would reject it");
		}
		depth[0]++;
		try {
			target().encode(value, out);
		}
		finally {
			depth[0]--;
		}
	}

	@Override
	public T decode(XdrDecoder in) {
		int[] depth = DEPTH.get();
		if (depth[0] >= this.maxDepth) {
			throw new XdrLimitExceededException("nesting depth of " + this.type.getTypeName(), depth[0] + 1L, this.maxDepth);
		}
		depth[0]++;
		try {
			return target().decode(in);
		}
		finally {
			depth[0]--;
		}
	}

	@Override
	public int encodedSize(T value) {
		int[] depth = DEPTH.get();
		if (depth[0] >= this.maxDepth) {
			throw new XdrInvalidValueException("value of " + this.type.getTypeName() + " nests deeper than the limit of " + this.maxDepth
					+ " levels (is the object graph cyclic?); the peer would reject it");
		}
		depth[0]++;
		try {
			return target().encodedSize(value);
		}
		finally {
			depth[0]--;
		}
	}

	@Override
	public boolean ddpEligible() {
		return false;
	}

	@Override
	public XdrShape shape() {
		return target().shape();
	}

	@Override
	public String toString() {
		return "ref " + this.type.getTypeName();
	}

}
