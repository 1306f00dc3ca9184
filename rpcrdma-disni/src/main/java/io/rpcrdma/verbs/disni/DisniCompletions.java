package io.rpcrdma.verbs.disni;

import com.ibm.disni.verbs.IbvWC;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * Maps verbs completions ({@code ibv_wc} as DiSNI's {@link IbvWC}) to SPI completions, by
 * the numeric values of libibverbs' {@code enum ibv_wc_status} and
 * {@code enum ibv_wc_opcode}.
 * <p>
 * DiSNI reuses the {@code IbvWC} array of a poll call for the next poll, so a completion
 * must be copied out before polling again (DiSNI issue 44); {@link #fill} copies every
 * field the SPI needs into the caller's holder.
 */
final class DisniCompletions {

	/** {@code IBV_WC_WITH_INV} in {@code wc_flags}: the Send invalidated a local rkey. */
	static final int IBV_WC_WITH_INV = 1 << 3;

	/** {@code IBV_WC_SEND}. */
	static final int IBV_WC_SEND = 0;

	/** {@code IBV_WC_RDMA_WRITE}. */
	static final int IBV_WC_RDMA_WRITE = 1;

	/** {@code IBV_WC_RDMA_READ}. */
	static final int IBV_WC_RDMA_READ = 2;

	/** {@code IBV_WC_RECV}. */
	static final int IBV_WC_RECV = 128;

	/** {@code IBV_WC_RECV_RDMA_WITH_IMM}. */
	static final int IBV_WC_RECV_RDMA_WITH_IMM = 129;

	/** {@code IBV_WC_SUCCESS}. */
	static final int IBV_WC_SUCCESS = 0;

	/** {@code IBV_WC_WR_FLUSH_ERR}. */
	static final int IBV_WC_WR_FLUSH_ERR = 5;

	/** The names of {@code enum ibv_wc_status}, by value. */
	private static final String[] STATUS_NAMES = { "IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR",
			"IBV_WC_LOC_EEC_OP_ERR", "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR",
			"IBV_WC_BAD_RESP_ERR", "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR",
			"IBV_WC_REM_OP_ERR", "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR",
			"IBV_WC_REM_INV_RD_REQ_ERR", "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR",
			"IBV_WC_FATAL_ERR", "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR" };

	/** What each status means for the user, by value; computed once so errors allocate nothing. */
	private static final String[] DETAILS = new String[STATUS_NAMES.length];

	static {
		String[] meaning = { null, "a receive buffer was too small for the incoming Send, or a gather list too long",
				"the work request is not valid for this queue pair", "local EE context error",
				"a scatter/gather entry names memory that is not registered, invalidated, out of bounds or lacks "
						+ "LOCAL_WRITE",
				"flushed: the queue pair is in the error state, the work request was not executed",
				"memory window bind failed", "the peer sent an unexpected transport response",
				"local access error on incoming RDMA data",
				"the peer could not accept the request (for example its receive buffer was too small)",
				"the peer refused the RDMA access: bad or invalidated rkey, out of bounds, or missing access rights",
				"the peer failed to execute the operation",
				"transport retries exhausted: the peer did not answer (down, unreachable, or its queue pair failed)",
				"receiver-not-ready retries exhausted: the peer posted no receive in time",
				"reliable datagram domain violation", "the peer refused the RDMA Read request",
				"the peer aborted the operation", "invalid EE context number", "invalid EE context state",
				"fatal adapter error", "response timeout", "general adapter error" };
		for (int i = 0; i < STATUS_NAMES.length; i++) {
			DETAILS[i] = (meaning[i] == null) ? null : STATUS_NAMES[i] + " (" + i + "): " + meaning[i];
		}
	}

	private DisniCompletions() {
	}

	/**
	 * The SPI status of a verbs status.
	 * @param ibvStatus an {@code ibv_wc_status} value
	 * @return the status; statuses the SPI does not name map to the nearest kind
	 */
	static CompletionStatus status(int ibvStatus) {
		return switch (ibvStatus) {
			case 0 -> CompletionStatus.SUCCESS;
			case 1 -> CompletionStatus.LOC_LEN_ERR;
			case 2 -> CompletionStatus.LOC_QP_OP_ERR;
			case 4, 6, 8 -> CompletionStatus.LOC_PROT_ERR; // protection, memory window bind, local access
			case 5 -> CompletionStatus.WR_FLUSH_ERR;
			case 9, 15 -> CompletionStatus.REM_INV_REQ_ERR; // invalid request, invalid RDMA Read request
			case 10 -> CompletionStatus.REM_ACCESS_ERR;
			case 11, 16 -> CompletionStatus.REM_OP_ERR; // operation error, remote abort
			case 12, 20 -> CompletionStatus.RETRY_EXC_ERR; // retries exhausted, response timeout
			case 13 -> CompletionStatus.RNR_RETRY_EXC_ERR;
			default -> CompletionStatus.GENERAL_ERR; // EE context errors, bad response, fatal, general, unknown
		};
	}

	/**
	 * The SPI opcode of a verbs completion opcode, which verbs defines only for
	 * successful completions.
	 * @param ibvOpcode an {@code ibv_wc_opcode} value
	 * @return the opcode, or {@code null} for operations the provider never posts
	 * (atomics, memory window binds)
	 */
	static CompletionOpcode opcode(int ibvOpcode) {
		return switch (ibvOpcode) {
			case IBV_WC_SEND -> CompletionOpcode.SEND;
			case IBV_WC_RDMA_WRITE -> CompletionOpcode.RDMA_WRITE;
			case IBV_WC_RDMA_READ -> CompletionOpcode.RDMA_READ;
			case IBV_WC_RECV, IBV_WC_RECV_RDMA_WITH_IMM -> CompletionOpcode.RECV;
			default -> null;
		};
	}

	/**
	 * The verbs name of a status, for messages.
	 * @param ibvStatus an {@code ibv_wc_status} value
	 * @return for example {@code IBV_WC_REM_ACCESS_ERR}
	 */
	static String statusName(int ibvStatus) {
		return (ibvStatus >= 0 && ibvStatus < STATUS_NAMES.length) ? STATUS_NAMES[ibvStatus]
				: "ibv_wc_status " + ibvStatus;
	}

	/**
	 * What a failed status means, for {@link WorkCompletion#detail()}.
	 * @param ibvStatus an {@code ibv_wc_status} value
	 * @return the explanation, {@code null} for success
	 */
	static String detail(int ibvStatus) {
		if (ibvStatus == IBV_WC_SUCCESS) {
			return null;
		}
		return (ibvStatus > 0 && ibvStatus < DETAILS.length) ? DETAILS[ibvStatus]
				: "ibv_wc_status " + ibvStatus + ": unknown adapter error";
	}

	/**
	 * Copies a send-queue completion into an SPI holder. The opcode, the caller's wr_id
	 * and the length come from the provider's record of the work request, because verbs
	 * defines them only for successful completions.
	 * @param into the holder
	 * @param wc the verbs completion, read now and not kept
	 * @param callerWrId the caller's wr_id
	 * @param opcode the operation that was posted
	 * @param postedLength the bytes the work request carried
	 * @param queuePairNumber the SPI queue pair number
	 * @return the holder
	 */
	static WorkCompletion fillSend(WorkCompletion into, IbvWC wc, long callerWrId, SendOpcode opcode, int postedLength,
			int queuePairNumber) {
		int ibvStatus = wc.getStatus();
		boolean success = ibvStatus == IBV_WC_SUCCESS;
		return into.set(callerWrId, CompletionOpcode.of(opcode), status(ibvStatus), success ? postedLength : 0,
				queuePairNumber, false, 0, detail(ibvStatus));
	}

	/**
	 * Copies a receive completion into an SPI holder: byte count and invalidated rkey from
	 * the adapter, the caller's wr_id from the provider's record.
	 * @param into the holder
	 * @param wc the verbs completion, read now and not kept
	 * @param callerWrId the caller's wr_id
	 * @param queuePairNumber the SPI queue pair number
	 * @return the holder
	 */
	static WorkCompletion fillReceive(WorkCompletion into, IbvWC wc, long callerWrId, int queuePairNumber) {
		int ibvStatus = wc.getStatus();
		boolean success = ibvStatus == IBV_WC_SUCCESS;
		// verbs keeps invalidated_rkey in the union with imm_data; DiSNI names it imm_data.
		boolean withInvalidate = success && (wc.getWc_flags() & IBV_WC_WITH_INV) != 0;
		return into.set(callerWrId, CompletionOpcode.RECV, status(ibvStatus), success ? wc.getByte_len() : 0,
				queuePairNumber, withInvalidate, withInvalidate ? wc.getImm_data() : 0, detail(ibvStatus));
	}

	/**
	 * Whether a status is an error that breaks the connection (anything but success and
	 * flush, which is the consequence of an earlier error or a disconnect).
	 * @param ibvStatus an {@code ibv_wc_status} value
	 * @return {@code true} for a fatal error
	 */
	static boolean isFatal(int ibvStatus) {
		return ibvStatus != IBV_WC_SUCCESS && ibvStatus != IBV_WC_WR_FLUSH_ERR;
	}

}
