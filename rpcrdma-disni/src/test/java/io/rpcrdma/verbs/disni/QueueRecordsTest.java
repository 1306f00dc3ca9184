package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.SendOpcode;

class QueueRecordsTest {

	@Test
	void hardwareWrIdsNameTheQueuePairTheSlotAndWhetherItIsAReceive() {
		long send = WorkRequestIds.send(0x7fff_fffe, 1234);
		assertThat(WorkRequestIds.queuePairIndex(send)).isEqualTo(0x7fff_fffe);
		assertThat(WorkRequestIds.isReceive(send)).isFalse();
		assertThat(WorkRequestIds.slot(send)).isEqualTo(1234);
		long receive = WorkRequestIds.receive(17);
		assertThat(WorkRequestIds.queuePairIndex(receive)).isEqualTo(17);
		assertThat(WorkRequestIds.isReceive(receive)).isTrue();
		assertThat(WorkRequestIds.queuePairIndex(WorkRequestIds.send(-1, 0))).isEqualTo(-1);
	}

	@Test
	void aSignaledCompletionRetiresTheUnsignaledRequestsBeforeIt() {
		SendQueueRecords records = new SendQueueRecords(4);
		int a = records.add(10, SendOpcode.RDMA_WRITE, 100, false);
		int b = records.add(11, SendOpcode.RDMA_WRITE, 200, false);
		int c = records.add(12, SendOpcode.SEND, 30, true);
		assertThat(records.isOutstanding(a)).isTrue();
		assertThat(records.wrId(c)).isEqualTo(12);
		assertThat(records.opcode(c)).isEqualTo(SendOpcode.SEND);
		assertThat(records.length(c)).isEqualTo(30);
		assertThat(records.signaled(c)).isTrue();
		assertThat(records.retireThrough(c)).isEqualTo(3);
		assertThat(records.size()).isZero();
		assertThat(records.isOutstanding(b)).isFalse();
		assertThat(records.retireThrough(c)).as("a duplicate completion retires nothing").isZero();
	}

	@Test
	void theSendQueueDepthIsExactAndSlotsWrapAround() {
		SendQueueRecords records = new SendQueueRecords(3);
		for (int round = 0; round < 10; round++) {
			int first = records.add(round, SendOpcode.SEND, 1, true);
			int second = records.add(round, SendOpcode.SEND, 1, true);
			int third = records.add(round, SendOpcode.SEND, 1, true);
			assertThat(records.isFull()).isTrue();
			assertThat(records.oldest()).isEqualTo(first);
			assertThat(records.retireThrough(first)).isEqualTo(1);
			assertThat(records.retireThrough(third)).isEqualTo(2);
			assertThat(records.isOutstanding(second)).isFalse();
		}
		assertThat(records.oldest()).isEqualTo(-1);
	}

	@Test
	void aFailedPostIsForgotten() {
		SendQueueRecords records = new SendQueueRecords(2);
		records.add(1, SendOpcode.SEND, 1, true);
		int failed = records.add(2, SendOpcode.SEND, 1, true);
		records.removeNewest();
		assertThat(records.size()).isEqualTo(1);
		assertThat(records.isOutstanding(failed)).isFalse();
		assertThat(records.isOutstanding(-1)).isFalse();
		assertThat(records.isOutstanding(7)).isFalse();
	}

	@Test
	void receivesRetireInPostingOrderAndWaitForTheAdapterInOrder() {
		ReceiveQueueRecords records = new ReceiveQueueRecords(2);
		ReceiveWorkRequest first = ReceiveWorkRequest.of(1);
		ReceiveWorkRequest second = ReceiveWorkRequest.of(2);
		records.add(first);
		records.add(second);
		assertThat(records.isFull()).isTrue();
		assertThat(records.get(0)).isSameAs(first);
		assertThat(records.get(1)).isSameAs(second);
		assertThat(records.retireOldest()).isSameAs(first);
		records.add(first);
		assertThat(records.get(1)).isSameAs(first);
		records.removeNewest();
		assertThat(records.retireOldest()).isSameAs(second);
		assertThat(records.retireOldest()).isNull();
		assertThat(records.size()).isZero();
	}

	@Test
	void theQueuePairTableFindsByIndexAndForgetsClosedOnes() {
		// The table compares by identity, like queue pairs: keep the very objects.
		List<Integer> entries = new ArrayList<>();
		QueuePairTable<Integer> table = new QueuePairTable<>(Integer::intValue);
		for (int i = 1; i <= 200; i++) {
			Integer entry = Integer.valueOf(i);
			entries.add(entry);
			table.put(entry);
		}
		assertThat(table.size()).isEqualTo(200);
		for (int i = 1; i <= 200; i++) {
			assertThat(table.get(i)).isEqualTo(i);
		}
		assertThat(table.get(201)).isNull();
		for (int i = 1; i <= 200; i += 2) {
			table.remove(entries.get(i - 1));
		}
		assertThat(table.get(1)).isNull();
		assertThat(table.get(199)).isNull();
		assertThat(table.get(2)).isEqualTo(2);
		assertThat(table.get(200)).isEqualTo(200);
		assertThat(table.size()).isEqualTo(100);
		for (int i = 1; i <= 200; i++) {
			assertThat(table.get(i)).isEqualTo((i % 2 == 0) ? Integer.valueOf(i) : null);
		}
	}

	@Test
	void memoryWindowWorkHasAShareOfItsOwnAndNeitherCrowdsOutTheOther() {
		SendQueueRecords records = new SendQueueRecords(2, 2);
		int bind = records.addWindowWork(WindowWork.NONE);
		int send = records.add(10, SendOpcode.SEND, 30, true);
		int invalidate = records.addWindowWork((completed) -> {
		});
		assertThat(records.isWindowWorkFull()).isTrue();
		assertThat(records.isFull()).as("the caller still has one of its two").isFalse();
		records.add(11, SendOpcode.SEND, 30, true);
		assertThat(records.isFull()).isTrue();
		assertThat(records.capacity()).isEqualTo(2);
		assertThat(records.windowWork(bind)).isSameAs(WindowWork.NONE);
		assertThat(records.windowWork(send)).isNull();
		assertThat(records.windowWork(invalidate)).isNotNull();
		assertThat(records.retireThrough(bind)).isEqualTo(1);
		assertThat(records.isWindowWorkFull()).isFalse();
		assertThat(records.hasOrphans()).as("retired by its own completion").isFalse();
	}

	@Test
	void windowWorkRetiredByALaterCompletionIsHandedOverAsLost() {
		SendQueueRecords records = new SendQueueRecords(4, 4);
		List<Boolean> outcomes = new ArrayList<>();
		WindowWork invalidation = outcomes::add;
		records.addWindowWork(invalidation);
		int send = records.add(10, SendOpcode.SEND, 30, true);
		assertThat(records.retireThrough(send)).isEqualTo(2);
		assertThat(records.hasOrphans()).isTrue();
		List<WindowWork> orphans = new ArrayList<>();
		records.drainOrphans(orphans);
		assertThat(orphans).containsExactly(invalidation);
		assertThat(records.hasOrphans()).isFalse();
		assertThat(records.isWindowWorkFull()).isFalse();
		int again = records.addWindowWork(invalidation);
		records.removeNewest();
		assertThat(records.isOutstanding(again)).isFalse();
		assertThat(records.size()).isZero();
	}

}
