package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.ibm.disni.verbs.IbvWC;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.WorkCompletion;

class DisniCompletionsTest {

	@ParameterizedTest(name = "ibv_wc_status {0} -> {1}")
	@CsvSource({ "0, SUCCESS", "1, LOC_LEN_ERR", "2, LOC_QP_OP_ERR", "3, GENERAL_ERR", "4, LOC_PROT_ERR",
			"5, WR_FLUSH_ERR", "6, LOC_PROT_ERR", "7, GENERAL_ERR", "8, LOC_PROT_ERR", "9, REM_INV_REQ_ERR",
			"10, REM_ACCESS_ERR", "11, REM_OP_ERR", "12, RETRY_EXC_ERR", "13, RNR_RETRY_EXC_ERR", "14, GENERAL_ERR",
			"15, REM_INV_REQ_ERR", "16, REM_OP_ERR", "17, GENERAL_ERR", "18, GENERAL_ERR", "19, GENERAL_ERR",
			"20, RETRY_EXC_ERR", "21, GENERAL_ERR", "22, GENERAL_ERR", "-1, GENERAL_ERR" })
	void everyVerbsStatusMapsToAnSpiStatus(int ibvStatus, CompletionStatus expected) {
		assertThat(DisniCompletions.status(ibvStatus)).isEqualTo(expected);
	}

	@Test
	void statusNamesAndValuesAgreeWithDisnisEnum() {
		for (IbvWC.IbvWcStatus status : IbvWC.IbvWcStatus.values()) {
			assertThat(DisniCompletions.statusName(status.ordinal())).isEqualTo(status.name());
		}
		assertThat(DisniCompletions.statusName(99)).isEqualTo("ibv_wc_status 99");
	}

	@ParameterizedTest(name = "ibv_wc_opcode {0} -> {1}")
	@CsvSource({ "0, SEND", "1, RDMA_WRITE", "2, RDMA_READ", "128, RECV", "129, RECV" })
	void completionOpcodesAreTheLibibverbsValues(int ibvOpcode, CompletionOpcode expected) {
		assertThat(DisniCompletions.opcode(ibvOpcode)).isEqualTo(expected);
		assertThat(IbvWC.IbvWcOpcode.valueOf(ibvOpcode).getOpcode()).isEqualTo(ibvOpcode);
	}

	@Test
	void operationsTheProviderNeverPostsHaveNoSpiOpcode() {
		assertThat(DisniCompletions.opcode(3)).isNull();
		assertThat(DisniCompletions.opcode(4)).isNull();
		assertThat(DisniCompletions.opcode(5)).isNull();
	}

	@Test
	void aSuccessfulSendReportsTheCallersWrIdOpcodeAndPostedLength() {
		IbvWC wc = wc(0x0000_0003_0000_0007L, 0, 1, 0, 0, 0);
		WorkCompletion completion = DisniCompletions.fillSend(new WorkCompletion(), wc, 42, SendOpcode.RDMA_WRITE, 4096,
				3);
		assertThat(completion.wrId()).isEqualTo(42);
		assertThat(completion.opcode()).isEqualTo(CompletionOpcode.RDMA_WRITE);
		assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
		assertThat(completion.byteLength()).isEqualTo(4096);
		assertThat(completion.queuePairNumber()).isEqualTo(3);
		assertThat(completion.detail()).isNull();
	}

	@Test
	void aFailedSendTakesItsOpcodeFromTheProvidersRecordBecauseVerbsLeavesItUndefined() {
		// Verbs defines only wr_id and status for an error; the opcode field holds garbage.
		IbvWC wc = wc(9, 10, 128, 0, 0, 0);
		WorkCompletion completion = DisniCompletions.fillSend(new WorkCompletion(), wc, 5, SendOpcode.RDMA_READ, 64, 1);
		assertThat(completion.opcode()).isEqualTo(CompletionOpcode.RDMA_READ);
		assertThat(completion.status()).isEqualTo(CompletionStatus.REM_ACCESS_ERR);
		assertThat(completion.byteLength()).isZero();
		assertThat(completion.detail()).startsWith("IBV_WC_REM_ACCESS_ERR (10): the peer refused the RDMA access");
		assertThat(completion.isSuccess()).isFalse();
	}

	@Test
	void aSendWithInvalidateOfTheSpiIsReportedAsASend() {
		WorkCompletion completion = DisniCompletions.fillSend(new WorkCompletion(), wc(1, 0, 0, 0, 0, 0), 2,
				SendOpcode.SEND_WITH_INVALIDATE, 12, 1);
		assertThat(completion.opcode()).isEqualTo(CompletionOpcode.SEND);
	}

	@Test
	void aReceiveReportsTheBytesThatArrived() {
		IbvWC wc = wc(WorkRequestIds.receive(4), 0, 128, 300, 0, 0);
		WorkCompletion completion = DisniCompletions.fillReceive(new WorkCompletion(), wc, 77, 4);
		assertThat(completion.wrId()).isEqualTo(77);
		assertThat(completion.opcode()).isEqualTo(CompletionOpcode.RECV);
		assertThat(completion.byteLength()).isEqualTo(300);
		assertThat(completion.withInvalidate()).isFalse();
		assertThat(completion.invalidatedStag()).isZero();
	}

	@Test
	void aReceiveOfSendWithInvalidateNamesTheInvalidatedRkey() {
		IbvWC wc = wc(WorkRequestIds.receive(4), 0, 128, 20, DisniCompletions.IBV_WC_WITH_INV, 0x1234_5678);
		WorkCompletion completion = DisniCompletions.fillReceive(new WorkCompletion(), wc, 1, 4);
		assertThat(completion.withInvalidate()).isTrue();
		assertThat(completion.invalidatedStag()).isEqualTo(0x1234_5678);
	}

	@Test
	void aFlushedReceiveCarriesNoLengthAndSaysWhy() {
		IbvWC wc = wc(WorkRequestIds.receive(4), 5, 0, 999, DisniCompletions.IBV_WC_WITH_INV, 1);
		WorkCompletion completion = DisniCompletions.fillReceive(new WorkCompletion(), wc, 1, 4);
		assertThat(completion.status()).isEqualTo(CompletionStatus.WR_FLUSH_ERR);
		assertThat(completion.byteLength()).isZero();
		assertThat(completion.withInvalidate()).isFalse();
		assertThat(completion.detail()).contains("IBV_WC_WR_FLUSH_ERR (5)", "not executed");
	}

	@Test
	void aCopyIsIndependentOfTheReusedIbvWc() {
		IbvWC reused = wc(WorkRequestIds.receive(1), 0, 128, 10, 0, 0);
		WorkCompletion first = DisniCompletions.fillReceive(new WorkCompletion(), reused, 1, 1);
		reused.setByte_len(20);
		reused.setStatus(5);
		assertThat(first.byteLength()).isEqualTo(10);
		assertThat(first.status()).isEqualTo(CompletionStatus.SUCCESS);
	}

	@Test
	void onlyErrorsOtherThanFlushBreakTheConnection() {
		assertThat(DisniCompletions.isFatal(0)).isFalse();
		assertThat(DisniCompletions.isFatal(5)).isFalse();
		assertThat(DisniCompletions.isFatal(10)).isTrue();
		assertThat(DisniCompletions.isFatal(13)).isTrue();
		assertThat(DisniCompletions.isFatal(1)).isTrue();
	}

	@Test
	void unknownStatusesStillExplainThemselves() {
		assertThat(DisniCompletions.detail(0)).isNull();
		assertThat(DisniCompletions.detail(13)).contains("receiver-not-ready");
		assertThat(DisniCompletions.detail(40)).isEqualTo("ibv_wc_status 40: unknown adapter error");
	}

	private static IbvWC wc(long wrId, int status, int opcode, int byteLength, int flags, int immData) {
		IbvWC wc = new IbvWC();
		wc.setWr_id(wrId);
		wc.setStatus(status);
		wc.setOpcode(opcode);
		wc.setByte_len(byteLength);
		wc.setWc_flags(flags);
		wc.setImm_data(immData);
		return wc;
	}

}
