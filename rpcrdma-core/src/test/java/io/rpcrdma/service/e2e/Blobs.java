package io.rpcrdma.service.e2e;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.service.Bulk;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * A blob store: bulk arguments and results of every DDP-eligible type, marked and unmarked.
 */
@RpcProgram(number = 0x20000501, version = 1, name = "Blobs")
public interface Blobs {

	/** The largest blob: 64 MiB. */
	int MAX = 64 << 20;

	@RpcProcedure(1)
	long put(String key, @Bulk(maxBytes = MAX) byte[] data);

	@RpcProcedure(2)
	@Idempotent
	@Bulk(maxBytes = MAX)
	byte[] get(String key);

	@RpcProcedure(3)
	long putDirect(String key, @Bulk(maxBytes = MAX) BulkData data);

	@RpcProcedure(4)
	@Idempotent
	long checksum(ByteBuffer data);

	@RpcProcedure(5)
	@Bulk(maxBytes = MAX)
	CompletableFuture<ByteBuffer> reverseAsync(@Bulk(maxBytes = MAX) ByteBuffer data);

	@RpcProcedure(6)
	@Idempotent
	String echo(String text);

	/**
	 * The blob, lent: a view of the Write chunk buffer the server placed it in, until closed.
	 * @param key the blob's key
	 * @return the blob
	 */
	@RpcProcedure(7)
	@Idempotent
	@Bulk(maxBytes = MAX, lend = true)
	BulkData lend(String key);

}
