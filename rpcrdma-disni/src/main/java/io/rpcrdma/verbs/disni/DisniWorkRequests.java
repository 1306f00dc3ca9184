package io.rpcrdma.verbs.disni;

import java.util.LinkedList;
import java.util.List;

import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.SVCPostSend;

import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;

/**
 * Translates SPI work requests into DiSNI's verbs structures ({@code ibv_send_wr},
 * {@code ibv_recv_wr}, {@code ibv_sge}), both for building a stateful verb call and for
 * rewriting a prebuilt one in place on the hot path. Pure Java: DiSNI's work request
 * classes are plain objects, so this is tested without the native library.
 */
final class DisniWorkRequests {

	/** {@code IBV_WR_RDMA_WRITE}. */
	static final int IBV_WR_RDMA_WRITE = IbvSendWR.IBV_WR_RDMA_WRITE;

	/** {@code IBV_WR_SEND}. */
	static final int IBV_WR_SEND = IbvSendWR.IBV_WR_SEND;

	/** {@code IBV_WR_RDMA_READ}. */
	static final int IBV_WR_RDMA_READ = IbvSendWR.IBV_WR_RDMA_READ;

	/**
	 * {@code IBV_WR_SEND_WITH_INV} from libibverbs' {@code enum ibv_wr_opcode}. DiSNI 2.1
	 * has no constant for it, but hands the opcode to {@code ibv_post_send} unchanged and
	 * writes {@code imm_data} where verbs keeps {@code invalidate_rkey} (the same union).
	 */
	static final int IBV_WR_SEND_WITH_INV = 9;

	/** {@code IBV_SEND_SIGNALED}. */
	static final int IBV_SEND_SIGNALED = 1 << 1;

	/** {@code IBV_SEND_INLINE}. */
	static final int IBV_SEND_INLINE = 1 << 3;

	private DisniWorkRequests() {
	}

	/**
	 * The verbs opcode of an SPI operation.
	 * @param opcode the operation
	 * @return the {@code ibv_wr_opcode} value
	 */
	static int opcode(SendOpcode opcode) {
		return switch (opcode) {
			case SEND -> IBV_WR_SEND;
			case SEND_WITH_INVALIDATE -> IBV_WR_SEND_WITH_INV;
			case RDMA_WRITE -> IBV_WR_RDMA_WRITE;
			case RDMA_READ -> IBV_WR_RDMA_READ;
		};
	}

	/**
	 * The send flags: signaled as asked, inline when the payload is small enough and the
	 * adapter reads it from the work request (never for RDMA Read, whose SGEs are sinks).
	 * @param workRequest the work request
	 * @param maxInlineData the inline threshold of the queue pair, 0 for none
	 * @return the {@code send_flags}
	 */
	static int sendFlags(SendWorkRequest workRequest, int maxInlineData) {
		int flags = workRequest.signaled() ? IBV_SEND_SIGNALED : 0;
		if (maxInlineData > 0 && workRequest.opcode() != SendOpcode.RDMA_READ
				&& workRequest.totalLength() <= maxInlineData) {
			flags |= IBV_SEND_INLINE;
		}
		return flags;
	}

	/**
	 * How many entries the adapter gets: empty entries are left out, because some adapters
	 * read an SGE length of 0 as 2 GiB.
	 * @param sgList the SPI entries
	 * @return the number of non-empty entries
	 */
	static int adapterSgeCount(List<ScatterGatherEntry> sgList) {
		int n = 0;
		for (int i = 0; i < sgList.size(); i++) {
			if (sgList.get(i).length() > 0) {
				n++;
			}
		}
		return n;
	}

	/**
	 * One verbs SGE: the local key and the address of the entry's first byte.
	 * @param entry the SPI entry
	 * @return the SGE
	 */
	static IbvSge sge(ScatterGatherEntry entry) {
		IbvSge sge = new IbvSge();
		sge.setAddr(entry.region().address() + entry.offset());
		sge.setLength(entry.length());
		sge.setLkey(entry.region().lkey());
		return sge;
	}

	private static LinkedList<IbvSge> sgList(List<ScatterGatherEntry> entries) {
		LinkedList<IbvSge> list = new LinkedList<>();
		for (int i = 0; i < entries.size(); i++) {
			ScatterGatherEntry entry = entries.get(i);
			if (entry.length() > 0) {
				list.add(sge(entry));
			}
		}
		return list;
	}

	/**
	 * A complete verbs send work request, for building a stateful call.
	 * @param workRequest the SPI work request
	 * @param hardwareWrId the wr_id the adapter reports (see {@link WorkRequestIds})
	 * @param maxInlineData the inline threshold, 0 for none
	 * @return the verbs work request
	 */
	static IbvSendWR sendWorkRequest(SendWorkRequest workRequest, long hardwareWrId, int maxInlineData) {
		IbvSendWR wr = new IbvSendWR();
		wr.setWr_id(hardwareWrId);
		wr.setOpcode(opcode(workRequest.opcode()));
		wr.setSend_flags(sendFlags(workRequest, maxInlineData));
		wr.setSg_list(sgList(workRequest.sgList()));
		RemoteAddress remote = workRequest.remoteAddress();
		if (remote != null && isTagged(workRequest.opcode())) {
			// The peer's memory is named by its remote key, never by a local key.
			wr.getRdma().setRemote_addr(remote.address());
			wr.getRdma().setRkey(remote.stag());
		}
		if (workRequest.opcode() == SendOpcode.SEND_WITH_INVALIDATE) {
			// invalidate_rkey. Linux's soft-iWARP user library (rdma-core's libsiw) reads the STag
			// from wr.rdma.rkey instead, so there it goes out as 0; the transport never sends Send
			// With Invalidate on this provider (ProviderCapabilities#remoteInvalidation).
			wr.setImm_data(workRequest.invalidateStag());
		}
		return wr;
	}

	/**
	 * Rewrites a prebuilt call's work request for another SPI work request of the same
	 * opcode and adapter SGE count, so posting allocates nothing.
	 * @param target the prebuilt work request of a stateful {@code SVCPostSend}
	 * @param workRequest the SPI work request
	 * @param hardwareWrId the wr_id the adapter reports
	 * @param maxInlineData the inline threshold, 0 for none
	 */
	static void rewrite(SVCPostSend.SendWRMod target, SendWorkRequest workRequest, long hardwareWrId,
			int maxInlineData) {
		if (target.getOpcode() != opcode(workRequest.opcode())
				|| target.getNum_sge() != adapterSgeCount(workRequest.sgList())) {
			throw new IllegalArgumentException("A prebuilt " + target.getOpcode() + " call with " + target.getNum_sge()
					+ " SGEs cannot carry " + workRequest.opcode() + " with " + adapterSgeCount(workRequest.sgList())
					+ " SGEs");
		}
		target.setWr_id(hardwareWrId);
		target.setSend_flags(sendFlags(workRequest, maxInlineData));
		List<ScatterGatherEntry> entries = workRequest.sgList();
		int index = 0;
		for (int i = 0; i < entries.size(); i++) {
			ScatterGatherEntry entry = entries.get(i);
			if (entry.length() == 0) {
				continue;
			}
			SVCPostSend.SgeMod sge = target.getSgeMod(index++);
			sge.setAddr(entry.region().address() + entry.offset());
			sge.setLength(entry.length());
			sge.setLkey(entry.region().lkey());
		}
		RemoteAddress remote = workRequest.remoteAddress();
		if (remote != null && isTagged(workRequest.opcode())) {
			target.getRdmaMod().setRemote_addr(remote.address());
			target.getRdmaMod().setRkey(remote.stag());
		}
	}

	/**
	 * A verbs receive work request.
	 * @param entries the SPI entries
	 * @param hardwareWrId the wr_id the adapter reports
	 * @return the verbs work request
	 */
	static IbvRecvWR receiveWorkRequest(List<ScatterGatherEntry> entries, long hardwareWrId) {
		IbvRecvWR wr = new IbvRecvWR();
		wr.setWr_id(hardwareWrId);
		wr.setSg_list(sgList(entries));
		return wr;
	}

	private static boolean isTagged(SendOpcode opcode) {
		return opcode == SendOpcode.RDMA_WRITE || opcode == SendOpcode.RDMA_READ;
	}

}
