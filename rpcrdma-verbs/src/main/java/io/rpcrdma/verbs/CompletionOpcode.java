package io.rpcrdma.verbs;

/**
 * What a {@link WorkCompletion} completes (verbs {@code ibv_wc_opcode}).
 */
public enum CompletionOpcode {

	/** A Send or Send with Invalidate of the local send queue. */
	SEND,

	/** An RDMA Write of the local send queue. */
	RDMA_WRITE,

	/** An RDMA Read of the local send queue. */
	RDMA_READ,

	/** A receive: an incoming Send was placed in a posted receive (or the receive was flushed). */
	RECV;

	/**
	 * The completion opcode of a send-queue operation.
	 * @param opcode the work request's opcode
	 * @return the completion opcode
	 */
	public static CompletionOpcode of(SendOpcode opcode) {
		return switch (opcode) {
			case SEND, SEND_WITH_INVALIDATE -> SEND;
			case RDMA_WRITE -> RDMA_WRITE;
			case RDMA_READ -> RDMA_READ;
		};
	}

}
