package io.rpcrdma.transport;

import java.util.concurrent.atomic.LongAdder;

import io.rpcrdma.protocol.ErrVers;
import io.rpcrdma.protocol.Rdma2ErrBadHeader;
import io.rpcrdma.protocol.Rdma2ErrInvalOption;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaErrorHeader;

/**
 * RDMA_ERROR messages by error code. ERR_CHUNK (Version 1) and RDMA_ERR_BAD_HEADER
 * (Version 2) share the value 2 on the wire but are counted apart, as their versions name them.
 *
 * @param errVers ERR_VERS / RDMA_ERR_VERS: the version is not supported (RFC 8166 §4.5.1)
 * @param errChunk ERR_CHUNK: a Version 1 header or its chunk lists could not be decoded
 * (RFC 8166 §4.5.2)
 * @param errBadHeader RDMA_ERR_BAD_HEADER: a Version 2 header could not be decoded
 * (draft-cel-nfsv4-rpcrdma-version-two §4.2)
 * @param errInvalOption RDMA_ERR_INVAL_OPTION: an RDMA2_OPTIONAL type is not supported
 * (draft-cel-nfsv4-rpcrdma-version-two §4.2)
 */
public record RdmaErrorCounts(long errVers, long errChunk, long errBadHeader, long errInvalOption) {

	/** No errors. */
	public static final RdmaErrorCounts ZERO = new RdmaErrorCounts(0, 0, 0, 0);

	/**
	 * @param error one RDMA_ERROR
	 * @return the counts of that error alone
	 */
	public static RdmaErrorCounts of(RdmaErrorHeader error) {
		long[] counts = new long[4];
		counts[index(error)] = 1;
		return new RdmaErrorCounts(counts[0], counts[1], counts[2], counts[3]);
	}

	/** @return every error counted */
	public long total() {
		return this.errVers + this.errChunk + this.errBadHeader + this.errInvalOption;
	}

	/**
	 * @param other more counts
	 * @return the sum, code by code
	 */
	public RdmaErrorCounts plus(RdmaErrorCounts other) {
		return new RdmaErrorCounts(this.errVers + other.errVers, this.errChunk + other.errChunk,
				this.errBadHeader + other.errBadHeader, this.errInvalOption + other.errInvalOption);
	}

	static int index(RdmaErrorHeader error) {
		if (error instanceof ErrVers) {
			return 0;
		}
		if (error instanceof RdmaErrChunk) {
			return 1;
		}
		if (error instanceof Rdma2ErrBadHeader) {
			return 2;
		}
		if (error instanceof Rdma2ErrInvalOption) {
			return 3;
		}
		throw new IllegalArgumentException("Unknown RDMA_ERROR " + error);
	}

	static RdmaErrorCounts sum(LongAdder[] byIndex) {
		return new RdmaErrorCounts(byIndex[0].sum(), byIndex[1].sum(), byIndex[2].sum(), byIndex[3].sum());
	}

}
