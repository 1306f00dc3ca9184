package io.rpcrdma.benchmarks.compare;

import java.nio.ByteBuffer;

import io.rpcrdma.service.Bulk;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * What every contender of the comparison serves: a small echo, and bulk data in either
 * direction. The bulk argument and result are {@link Bulk}, so rpcrdma moves them by Read
 * and Write chunks (RFC 8166 §3.4.5, §3.4.6) rather than inline.
 */
@RpcProgram(number = 0x20000A01, version = 1, name = "CompareBench")
public interface BenchService {

	/** The largest bulk argument or result the benchmarks move: 64 MiB, the top of the growth curve ({@link Growth}). */
	int MAX_BULK = 64 << 20;

	/**
	 * @param data a small request
	 * @return the same bytes
	 */
	@RpcProcedure(1)
	@Idempotent
	byte[] echo(byte[] data);

	/**
	 * Takes bulk data the client pushes.
	 * @param data the bytes
	 * @return how many bytes arrived
	 */
	@RpcProcedure(2)
	@Idempotent
	int put(@Bulk(maxBytes = MAX_BULK) BulkData data);

	/**
	 * Sends bulk data the client pulls.
	 * @param length how many bytes
	 * @return that many bytes
	 */
	@RpcProcedure(3)
	@Idempotent
	@Bulk(maxBytes = MAX_BULK)
	ByteBuffer get(int length);

	/**
	 * Sends bulk data the client pulls, lent on the client: a view of the registered buffer
	 * the server's RDMA Write placed it in, until closed (no allocation, no copy), as the
	 * socket contender reads into one buffer it keeps.
	 * @param length how many bytes
	 * @return that many bytes, lent
	 */
	@RpcProcedure(4)
	@Idempotent
	@Bulk(maxBytes = MAX_BULK, lend = true)
	BulkData getLent(int length);

}
