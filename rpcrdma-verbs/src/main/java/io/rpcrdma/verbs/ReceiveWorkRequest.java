package io.rpcrdma.verbs;

import java.util.List;

/**
 * A work request for a queue pair's receive queue (verbs {@code ibv_recv_wr}): a buffer
 * for one incoming Send. Immutable; may be posted again after it completed.
 *
 * @param wrId the caller's identifier, returned in the completion
 * @param sgList the memory the incoming message is scattered into, in order; every region
 * needs {@link AccessFlag#LOCAL_WRITE}
 */
public record ReceiveWorkRequest(long wrId, List<ScatterGatherEntry> sgList) {

	/**
	 * Copies the list.
	 * @param wrId the caller's identifier
	 * @param sgList the memory
	 */
	public ReceiveWorkRequest {
		sgList = List.copyOf(sgList);
	}

	/**
	 * A receive into the given entries.
	 * @param wrId the caller's identifier
	 * @param sgList the memory
	 * @return the work request
	 */
	public static ReceiveWorkRequest of(long wrId, ScatterGatherEntry... sgList) {
		return new ReceiveWorkRequest(wrId, List.of(sgList));
	}

	/**
	 * The capacity of the scatter list.
	 * @return the byte count
	 */
	public long totalLength() {
		return total(this.sgList);
	}

	static long total(List<ScatterGatherEntry> sgList) {
		long total = 0;
		for (int i = 0; i < sgList.size(); i++) {
			total += sgList.get(i).length();
		}
		return total;
	}

}
