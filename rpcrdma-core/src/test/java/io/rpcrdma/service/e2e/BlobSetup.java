package io.rpcrdma.service.e2e;

import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.SizeClass;
import io.rpcrdma.protocol.HeaderLimits;
import io.rpcrdma.transport.TransportConfig;

/**
 * Memory pools and transport settings for moving {@link Blobs} of up to 64 MiB, shared by the
 * end-to-end suites.
 */
final class BlobSetup {

	private BlobSetup() {
	}

	/**
	 * @param protectsBodies whether calls travel protected whole (krb5i, krb5p)
	 * @return pools with chunk size classes up to the largest blob
	 */
	static MemoryPoolConfig pools(boolean protectsBodies) {
		// Chunks up to 64 MiB, the largest blob the tests move.
		MemoryPoolConfig pools = MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2);
		List<SizeClass> classes = new ArrayList<>();
		for (SizeClass sizeClass : pools.sizeClasses()) {
			if (sizeClass.role() == BufferRole.RECEIVE || sizeClass.role() == BufferRole.SEND) {
				classes.add(sizeClass);
			}
		}
		// A protected body (krb5i, krb5p) of a 64 MiB blob travels whole with its header and
		// checksum, in a long message or a Reply chunk: the size class above 64 MiB.
		int largestChunk = protectsBodies ? 2 * Blobs.MAX : Blobs.MAX;
		for (BufferRole role : List.of(BufferRole.READ_CHUNK, BufferRole.WRITE_CHUNK)) {
			classes.addAll(SizeClass.powersOfTwo(role, 4096, largestChunk));
		}
		// A call is rebuilt in one LOCAL_BULK buffer for zero copy: a 64 MiB argument and its
		// call header need the next size class up.
		classes.addAll(SizeClass.powersOfTwo(BufferRole.LOCAL_BULK, 4096, 2 * Blobs.MAX));
		return pools.withSizeClasses(classes).withMaxRegisteredBytes(1L << 30).withLeakTracking(true);
	}

	/**
	 * @return transport settings whose header limits admit a 64 MiB blob's chunks
	 */
	static TransportConfig transport() {
		return TransportConfig.defaults()
			.withHeaderLimits(new HeaderLimits(16, 16, 2L * Blobs.MAX, HeaderLimits.DEFAULT_MAX_OPTIONAL_INFO_LENGTH));
	}

}
