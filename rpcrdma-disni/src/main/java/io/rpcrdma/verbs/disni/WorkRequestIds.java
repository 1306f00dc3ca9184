package io.rpcrdma.verbs.disni;

/**
 * The {@code wr_id} the provider gives the adapter, instead of the caller's.
 * <p>
 * For a failed or flushed work request verbs guarantees only {@code wr_id} and
 * {@code status} (DiSNI 2.1 copies nothing else out of such a completion, not even the
 * queue pair number), yet the provider must report the caller's wr_id, the opcode and the
 * queue pair for every completion. So the hardware wr_id names the provider's own record:
 * the queue pair's index in the upper 32 bits, then a receive flag, then the send slot.
 * Receives complete in posting order, so their slot is not needed (and prebuilt receive
 * calls cannot change their wr_id anyway).
 */
final class WorkRequestIds {

	/** Marks a receive. */
	static final long RECEIVE_FLAG = 1L << 31;

	private WorkRequestIds() {
	}

	/**
	 * The wr_id of a send-queue work request.
	 * @param queuePairIndex the provider's index of the queue pair
	 * @param slot the slot of the send queue record
	 * @return the hardware wr_id
	 */
	static long send(int queuePairIndex, int slot) {
		return ((long) queuePairIndex << 32) | (slot & 0x7fff_ffffL);
	}

	/**
	 * The wr_id of every receive of a queue pair.
	 * @param queuePairIndex the provider's index of the queue pair
	 * @return the hardware wr_id
	 */
	static long receive(int queuePairIndex) {
		return ((long) queuePairIndex << 32) | RECEIVE_FLAG;
	}

	static int queuePairIndex(long wrId) {
		return (int) (wrId >>> 32);
	}

	static boolean isReceive(long wrId) {
		return (wrId & RECEIVE_FLAG) != 0;
	}

	static int slot(long wrId) {
		return (int) (wrId & 0x7fff_ffffL);
	}

}
