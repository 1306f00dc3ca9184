package io.rpcrdma.service.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rpcrdma.service.codec.Model.Point;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Encoding a small record of primitives allocates nothing, and decoding it allocates the
 * record and nothing else: members are read through method handles typed with their
 * primitive types, so nothing is boxed and no argument array is built.
 */
class CodecAllocationTest {

	private static final int WARM_UP = 50_000;

	private static final int MEASURED = 10_000;

	@Test
	void smallRecordOfPrimitivesAllocatesOnlyTheDecodedRecord() {
		if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean)
				|| !bean.isThreadAllocatedMemorySupported() || !bean.isThreadAllocatedMemoryEnabled()) {
			Assumptions.abort("this JVM does not count allocated bytes per thread");
			return;
		}
		XdrCodec<Point> codec = CodecRegistry.standard().codecFor(Point.class);
		Point point = new Point(7, -3L, true);
		ByteBuffer buffer = ByteBuffer.allocateDirect(64);
		XdrEncoder encoder = new XdrEncoder(buffer);
		XdrDecoder decoder = new XdrDecoder(buffer);
		long sink = 0;
		for (int i = 0; i < WARM_UP; i++) {
			sink += roundTrip(codec, point, buffer, encoder, decoder).x();
		}
		long thread = Thread.currentThread().getId();

		long before = bean.getThreadAllocatedBytes(thread);
		for (int i = 0; i < MEASURED; i++) {
			buffer.clear();
			codec.encode(point, encoder.reset(buffer));
		}
		long encodeBytes = bean.getThreadAllocatedBytes(thread) - before;

		before = bean.getThreadAllocatedBytes(thread);
		for (int i = 0; i < MEASURED; i++) {
			buffer.position(0).limit(16);
			sink += codec.decode(decoder.reset(buffer)).x();
		}
		long decodeBytes = bean.getThreadAllocatedBytes(thread) - before;

		double encodePerCall = (double) encodeBytes / MEASURED;
		double decodePerCall = (double) decodeBytes / MEASURED;
		System.out.printf("Point(int, long, boolean): encode %.1f bytes/call, decode %.1f bytes/call (the record itself: 24-32) [%d]%n",
				encodePerCall, decodePerCall, sink & 1);
		assertThat(encodePerCall).as("bytes allocated per encode").isLessThan(1.0);
		assertThat(decodePerCall).as("bytes allocated per decode, the Point included").isLessThanOrEqualTo(40.0);
	}

	private static Point roundTrip(XdrCodec<Point> codec, Point point, ByteBuffer buffer, XdrEncoder encoder, XdrDecoder decoder) {
		buffer.clear();
		codec.encode(point, encoder.reset(buffer));
		buffer.flip();
		return codec.decode(decoder.reset(buffer));
	}

}
