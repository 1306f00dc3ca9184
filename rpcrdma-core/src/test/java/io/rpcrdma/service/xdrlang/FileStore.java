package io.rpcrdma.service.xdrlang;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.service.Bulk;
import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.codec.XdrOptional;
import io.rpcrdma.service.codec.XdrValue;

/** A realistic service, in two versions, whose XDR language export rpcgen must accept. */
final class FileStore {

	private FileStore() {
	}

	enum FileType {
		REGULAR, DIRECTORY, SYMLINK
	}

	enum Status {
		@XdrValue(0)
		OK,
		@XdrValue(2)
		NOENT,
		@XdrValue(13)
		ACCES
	}

	record Attributes(FileType type, long size, int mode, Optional<String> owner, Map<String, String> xattrs, Integer links) {
	}

	/** A directory listing as a linked list, the classic rpcgen shape. */
	record Entry(String name, long fileId, @XdrOptional Entry next) {
	}

	/** A tree of directories, recursive through a list. */
	record Tree(String name, List<Tree> children, Set<FileType> kinds) {
	}

	record ReadResult(Status status, byte[] data, boolean eof) {
	}

	record Range(long offset, int count) {
	}

	@RpcProgram(number = 0x20000300, version = 1, name = "FileStore")
	interface V1 {

		@RpcProcedure(1)
		@Idempotent
		Attributes stat(String path);

		@RpcProcedure(2)
		@Idempotent
		ReadResult read(String path, Range range);

		@RpcProcedure(3)
		Status write(String path, long offset, @Bulk(maxBytes = 1 << 20) byte[] data);

		@RpcProcedure(4)
		@Idempotent
		Entry list(String directory);

		@RpcProcedure(5)
		void sync();

	}

	@RpcProgram(number = 0x20000300, version = 2, name = "FileStore")
	interface V2 {

		@RpcProcedure(1)
		@Idempotent
		Attributes stat(String path);

		@RpcProcedure(2)
		@Idempotent
		CompletableFuture<ReadResult> read(String path, Range range);

		@RpcProcedure(3)
		Status write(String path, long offset, @Bulk(maxBytes = 1 << 20) ByteBuffer data);

		@RpcProcedure(4)
		Optional<Entry> list(String directory);

		@RpcProcedure(5)
		void sync();

		@RpcProcedure(6)
		Tree tree(String root, int depth);

		@RpcProcedure(7)
		List<String> search(List<String> patterns, Map<String, Integer> options, double[] weights);

		@RpcProcedure(8)
		int count(Integer limit);

		@RpcProcedure(9)
		@Bulk(maxBytes = 1 << 24)
		byte[] snapshot();

	}

}
