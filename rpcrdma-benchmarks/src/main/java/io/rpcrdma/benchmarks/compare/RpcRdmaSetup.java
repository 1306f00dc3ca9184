package io.rpcrdma.benchmarks.compare;

import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.SizeClass;
import io.rpcrdma.protocol.HeaderLimits;
import io.rpcrdma.transport.TransportConfig;

/**
 * The settings both ends of the rpcrdma contenders use: chunks up to the 64 MiB bulk case,
 * and credits for 64 client threads.
 */
final class RpcRdmaSetup {

	/**
	 * Credits asked for and granted: one per client thread of the largest throughput case, so
	 * that calls queue in the transport's credit window only beyond that (RFC 8166 §3.3.1).
	 */
	static final int CREDITS = 64;

	private RpcRdmaSetup() {
	}

	/**
	 * @return the default pool but with Read and Write chunk buffers and local bulk buffers up
	 * to twice {@link BenchService#MAX_BULK}: a largest argument is rebuilt with its call header
	 * in one LOCAL_BULK buffer, and under RPCSEC_GSS integrity or privacy a result comes in a
	 * Reply chunk with its header and checksum (FlavorCost); both need the size class above it
	 */
	static MemoryPoolConfig pools() {
		MemoryPoolConfig defaults = MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2);
		List<SizeClass> classes = new ArrayList<>();
		for (SizeClass sizeClass : defaults.sizeClasses()) {
			if (sizeClass.role() == BufferRole.RECEIVE || sizeClass.role() == BufferRole.SEND) {
				classes.add(sizeClass);
			}
		}
		for (BufferRole role : List.of(BufferRole.READ_CHUNK, BufferRole.WRITE_CHUNK)) {
			classes.addAll(SizeClass.powersOfTwo(role, MemoryPoolConfig.DEFAULT_SMALLEST_CHUNK, 2 * BenchService.MAX_BULK));
		}
		classes.addAll(SizeClass.powersOfTwo(BufferRole.LOCAL_BULK, MemoryPoolConfig.DEFAULT_SMALLEST_CHUNK,
				2 * BenchService.MAX_BULK));
		return defaults.withSizeClasses(classes).withMaxRegisteredBytes(2L << 30);
	}

	/** @return default transport settings with {@link #CREDITS} credits and room for {@link BenchService#MAX_BULK} of chunks */
	static TransportConfig transport() {
		return TransportConfig.defaults()
			.withCredits(CREDITS, CREDITS, CREDITS + 8)
			.withHeaderLimits(new HeaderLimits(HeaderLimits.DEFAULT_MAX_SEGMENTS_PER_CHUNK, HeaderLimits.DEFAULT_MAX_CHUNKS,
					2L * BenchService.MAX_BULK, HeaderLimits.DEFAULT_MAX_OPTIONAL_INFO_LENGTH));
	}

}
