package io.rpcrdma.verbs;

import java.util.List;
import java.util.Objects;

/**
 * A work request for a queue pair's send queue (verbs {@code ibv_send_wr}). Immutable: a
 * caller may keep one and post it again and again without allocating.
 *
 * @param wrId the caller's identifier, returned in the completion
 * @param opcode the operation
 * @param sgList the local memory: gathered for Send and RDMA Write, scattered into for RDMA
 * Read
 * @param remoteAddress the peer's memory for {@link SendOpcode#RDMA_WRITE} and
 * {@link SendOpcode#RDMA_READ}; {@code null} for Sends
 * @param invalidateStag the peer's STag to invalidate for
 * {@link SendOpcode#SEND_WITH_INVALIDATE}; ignored otherwise
 * @param signaled whether a successful completion is reported (verbs
 * {@code IBV_SEND_SIGNALED}); failed and flushed work requests are always reported
 */
public record SendWorkRequest(long wrId, SendOpcode opcode, List<ScatterGatherEntry> sgList,
		RemoteAddress remoteAddress, int invalidateStag, boolean signaled) {

	/**
	 * Validates the request.
	 * @param wrId the caller's identifier
	 * @param opcode the operation
	 * @param sgList the local memory
	 * @param remoteAddress the peer's memory, for RDMA Write and Read
	 * @param invalidateStag the STag to invalidate, for Send with Invalidate
	 * @param signaled whether success is reported
	 */
	public SendWorkRequest {
		Objects.requireNonNull(opcode, "opcode");
		sgList = List.copyOf(sgList);
		if ((opcode == SendOpcode.RDMA_WRITE || opcode == SendOpcode.RDMA_READ) && remoteAddress == null) {
			throw new IllegalArgumentException(opcode + " needs the peer's RemoteAddress (address and STag)");
		}
	}

	/**
	 * A signaled Send.
	 * @param wrId the caller's identifier
	 * @param sgList the data to send
	 * @return the work request
	 */
	public static SendWorkRequest send(long wrId, ScatterGatherEntry... sgList) {
		return new SendWorkRequest(wrId, SendOpcode.SEND, List.of(sgList), null, 0, true);
	}

	/**
	 * A signaled Send that invalidates one of the peer's STags (RFC 5040 Send with Invalidate).
	 * @param wrId the caller's identifier
	 * @param stagToInvalidate the peer's STag
	 * @param sgList the data to send
	 * @return the work request
	 */
	public static SendWorkRequest sendWithInvalidate(long wrId, int stagToInvalidate, ScatterGatherEntry... sgList) {
		return new SendWorkRequest(wrId, SendOpcode.SEND_WITH_INVALIDATE, List.of(sgList), null, stagToInvalidate,
				true);
	}

	/**
	 * A signaled RDMA Write.
	 * @param wrId the caller's identifier
	 * @param target the peer's memory
	 * @param sgList the local data to write
	 * @return the work request
	 */
	public static SendWorkRequest rdmaWrite(long wrId, RemoteAddress target, ScatterGatherEntry... sgList) {
		return new SendWorkRequest(wrId, SendOpcode.RDMA_WRITE, List.of(sgList), target, 0, true);
	}

	/**
	 * A signaled RDMA Read.
	 * @param wrId the caller's identifier
	 * @param source the peer's memory
	 * @param sgList the local memory to read into
	 * @return the work request
	 */
	public static SendWorkRequest rdmaRead(long wrId, RemoteAddress source, ScatterGatherEntry... sgList) {
		return new SendWorkRequest(wrId, SendOpcode.RDMA_READ, List.of(sgList), source, 0, true);
	}

	/**
	 * The same request without a completion on success.
	 * @return the unsignaled request
	 */
	public SendWorkRequest unsignaled() {
		return new SendWorkRequest(this.wrId, this.opcode, this.sgList, this.remoteAddress, this.invalidateStag,
				false);
	}

	/**
	 * The total number of bytes of the scatter/gather list.
	 * @return the byte count
	 */
	public long totalLength() {
		return ReceiveWorkRequest.total(this.sgList);
	}

}
