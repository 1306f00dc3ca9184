package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.SVCPostSend;

import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;

/**
 * DiSNI's work request classes are plain Java objects (only the stateful calls and the
 * connection manager load libdisni), so the translation is checked here without a NIC.
 */
class DisniWorkRequestsTest {

	private final TestRegion local = new TestRegion(0x7f00_0000_1000L, 0x1111_2222, 0x0aaa_0bbb, 4096);

	private final TestRegion other = new TestRegion(0x7f00_0009_0000L, 0x3333_4444, 0x0ccc_0ddd, 512);

	private final RemoteAddress peer = new RemoteAddress(0x5500_0000_0040L, 0x7777_8888);

	@Test
	void opcodesAreTheLibibverbsValues() {
		assertThat(DisniWorkRequests.opcode(SendOpcode.RDMA_WRITE)).isZero();
		assertThat(DisniWorkRequests.opcode(SendOpcode.SEND)).isEqualTo(2);
		assertThat(DisniWorkRequests.opcode(SendOpcode.RDMA_READ)).isEqualTo(4);
		assertThat(DisniWorkRequests.opcode(SendOpcode.SEND_WITH_INVALIDATE)).isEqualTo(9);
		assertThat(IbvSendWR.IBV_WR_SEND).isEqualTo(2);
		assertThat(IbvSendWR.IBV_SEND_SIGNALED).isEqualTo(DisniWorkRequests.IBV_SEND_SIGNALED);
		assertThat(IbvSendWR.IBV_SEND_INLINE).isEqualTo(DisniWorkRequests.IBV_SEND_INLINE);
	}

	@Test
	void aSendGathersEachEntryByAddressLengthAndLkey() {
		SendWorkRequest send = SendWorkRequest.send(42, ScatterGatherEntry.of(this.local, 16, 100),
				ScatterGatherEntry.of(this.other, 0, 512));
		IbvSendWR wr = DisniWorkRequests.sendWorkRequest(send, 0x1_0000_0003L, 0);
		assertThat(wr.getWr_id()).isEqualTo(0x1_0000_0003L);
		assertThat(wr.getOpcode()).isEqualTo(IbvSendWR.IBV_WR_SEND);
		assertThat(wr.getSend_flags()).isEqualTo(IbvSendWR.IBV_SEND_SIGNALED);
		assertThat(wr.getNum_sge()).isEqualTo(2);
		assertSge(wr.getSge(0), 0x7f00_0000_1010L, 100, 0x0aaa_0bbb);
		assertSge(wr.getSge(1), 0x7f00_0009_0000L, 512, 0x0ccc_0ddd);
		assertThat(wr.getRdma().getRkey()).isZero();
	}

	@Test
	void anRdmaWriteNamesThePeersMemoryByItsRkeyNeverALocalKey() {
		SendWorkRequest write = SendWorkRequest.rdmaWrite(7, this.peer, ScatterGatherEntry.of(this.local, 0, 64));
		IbvSendWR wr = DisniWorkRequests.sendWorkRequest(write, 9, 0);
		assertThat(wr.getOpcode()).isEqualTo(IbvSendWR.IBV_WR_RDMA_WRITE);
		assertThat(wr.getRdma().getRemote_addr()).isEqualTo(0x5500_0000_0040L);
		assertThat(wr.getRdma().getRkey()).isEqualTo(0x7777_8888).isNotEqualTo(this.local.lkey());
		assertSge(wr.getSge(0), this.local.address(), 64, this.local.lkey());
	}

	@Test
	void anRdmaReadScattersIntoLocalMemoryAndIsNeverInlined() {
		SendWorkRequest read = SendWorkRequest.rdmaRead(8, this.peer.plus(8), ScatterGatherEntry.of(this.local, 32, 8));
		IbvSendWR wr = DisniWorkRequests.sendWorkRequest(read, 10, 256);
		assertThat(wr.getOpcode()).isEqualTo(IbvSendWR.IBV_WR_RDMA_READ);
		assertThat(wr.getRdma().getRemote_addr()).isEqualTo(0x5500_0000_0048L);
		assertThat(wr.getRdma().getRkey()).isEqualTo(0x7777_8888);
		assertThat(wr.getSend_flags()).isEqualTo(IbvSendWR.IBV_SEND_SIGNALED);
		assertSge(wr.getSge(0), this.local.address() + 32, 8, this.local.lkey());
	}

	@Test
	void sendWithInvalidateCarriesThePeersStagInTheInvalidateRkeyUnion() {
		SendWorkRequest send = SendWorkRequest.sendWithInvalidate(3, 0x0bad_cafe, ScatterGatherEntry.of(this.local));
		IbvSendWR wr = DisniWorkRequests.sendWorkRequest(send, 11, 0);
		assertThat(wr.getOpcode()).isEqualTo(9);
		assertThat(wr.getImm_data()).isEqualTo(0x0bad_cafe);
	}

	@Test
	void unsignaledAndInlineFlagsFollowTheRequestAndTheThreshold() {
		SendWorkRequest small = SendWorkRequest.send(1, ScatterGatherEntry.of(this.local, 0, 64)).unsignaled();
		assertThat(DisniWorkRequests.sendFlags(small, 0)).isZero();
		assertThat(DisniWorkRequests.sendFlags(small, 64)).isEqualTo(IbvSendWR.IBV_SEND_INLINE);
		assertThat(DisniWorkRequests.sendFlags(small, 63)).isZero();
		SendWorkRequest signaled = SendWorkRequest.send(1, ScatterGatherEntry.of(this.local, 0, 64));
		assertThat(DisniWorkRequests.sendFlags(signaled, 128))
			.isEqualTo(IbvSendWR.IBV_SEND_SIGNALED | IbvSendWR.IBV_SEND_INLINE);
	}

	@Test
	void emptyEntriesAreLeftOutBecauseSomeAdaptersReadLengthZeroAsTwoGigabytes() {
		SendWorkRequest send = SendWorkRequest.send(1, ScatterGatherEntry.of(this.local, 0, 0),
				ScatterGatherEntry.of(this.other, 4, 8), ScatterGatherEntry.of(this.local, 8, 0));
		IbvSendWR wr = DisniWorkRequests.sendWorkRequest(send, 1, 0);
		assertThat(wr.getNum_sge()).isEqualTo(1);
		assertSge(wr.getSge(0), this.other.address() + 4, 8, this.other.lkey());
		assertThat(DisniWorkRequests.adapterSgeCount(send.sgList())).isEqualTo(1);
		IbvSendWR zeroByteSend = DisniWorkRequests.sendWorkRequest(SendWorkRequest.send(2), 2, 0);
		assertThat(zeroByteSend.getNum_sge()).isZero();
	}

	@Test
	void aReceiveScattersIntoItsEntriesUnderTheProvidersWrId() {
		IbvRecvWR wr = DisniWorkRequests.receiveWorkRequest(
				List.of(ScatterGatherEntry.of(this.local, 0, 1024), ScatterGatherEntry.of(this.other, 0, 0)),
				WorkRequestIds.receive(5));
		assertThat(wr.getWr_id()).isEqualTo(WorkRequestIds.receive(5));
		assertThat(wr.getNum_sge()).isEqualTo(1);
		assertSge(wr.getSg_list().get(0), this.local.address(), 1024, this.local.lkey());
	}

	@Test
	void aPrebuiltCallIsRewrittenInPlaceForTheNextRequestOfTheSameShape() {
		SendWorkRequest first = SendWorkRequest.rdmaWrite(1, this.peer, ScatterGatherEntry.of(this.local, 0, 8),
				ScatterGatherEntry.of(this.other, 0, 8));
		RecordingSendWr prebuilt = new RecordingSendWr(DisniWorkRequests.sendWorkRequest(first, 100, 0));
		SendWorkRequest next = new SendWorkRequest(2, SendOpcode.RDMA_WRITE,
				List.of(ScatterGatherEntry.of(this.other, 16, 32), ScatterGatherEntry.of(this.local, 64, 128)),
				new RemoteAddress(0x9000L, 0x0101_0202), 0, false);
		DisniWorkRequests.rewrite(prebuilt, next, 200, 0);
		assertThat(prebuilt.getWr_id()).isEqualTo(200);
		assertThat(prebuilt.getSend_flags()).isZero();
		assertThat(prebuilt.rdma.getRemote_addr()).isEqualTo(0x9000L);
		assertThat(prebuilt.rdma.getRkey()).isEqualTo(0x0101_0202);
		assertThat(prebuilt.sges.get(0).addr).isEqualTo(this.other.address() + 16);
		assertThat(prebuilt.sges.get(0).length).isEqualTo(32);
		assertThat(prebuilt.sges.get(0).lkey).isEqualTo(this.other.lkey());
		assertThat(prebuilt.sges.get(1).addr).isEqualTo(this.local.address() + 64);
		assertThat(prebuilt.sges.get(1).length).isEqualTo(128);
		assertThat(prebuilt.sges.get(1).lkey).isEqualTo(this.local.lkey());
	}

	@Test
	void aPrebuiltCallOfAnotherShapeIsNotRewritten() {
		RecordingSendWr prebuilt = new RecordingSendWr(DisniWorkRequests
			.sendWorkRequest(SendWorkRequest.send(1, ScatterGatherEntry.of(this.local, 0, 8)), 1, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> DisniWorkRequests.rewrite(prebuilt,
				SendWorkRequest.send(2, ScatterGatherEntry.of(this.local, 0, 8), ScatterGatherEntry.of(this.other, 0, 8)),
				2, 0)).withMessageContaining("cannot carry SEND with 2 SGEs");
	}

	private static void assertSge(IbvSge sge, long address, int length, int lkey) {
		assertThat(sge.getAddr()).as("address").isEqualTo(address);
		assertThat(sge.getLength()).as("length").isEqualTo(length);
		assertThat(sge.getLkey()).as("lkey").isEqualTo(lkey);
	}

	/**
	 * What DiSNI's native call exposes for rewriting, recorded in Java.
	 */
	static final class RecordingSendWr implements SVCPostSend.SendWRMod {

		private long wrId;

		private int sendFlags;

		private final int opcode;

		private final RecordingRdma rdma = new RecordingRdma();

		private final List<RecordingSge> sges = new ArrayList<>();

		RecordingSendWr(IbvSendWR built) {
			this.wrId = built.getWr_id();
			this.sendFlags = built.getSend_flags();
			this.opcode = built.getOpcode();
			for (int i = 0; i < built.getNum_sge(); i++) {
				this.sges.add(new RecordingSge());
			}
		}

		@Override
		public void setWr_id(long wr_id) {
			this.wrId = wr_id;
		}

		@Override
		public void setSend_flags(int send_flags) {
			this.sendFlags = send_flags;
		}

		@Override
		public long getWr_id() {
			return this.wrId;
		}

		@Override
		public int getNum_sge() {
			return this.sges.size();
		}

		@Override
		public int getOpcode() {
			return this.opcode;
		}

		@Override
		public int getSend_flags() {
			return this.sendFlags;
		}

		@Override
		public SVCPostSend.RdmaMod getRdmaMod() {
			return this.rdma;
		}

		@Override
		public SVCPostSend.SgeMod getSgeMod(int index) {
			return this.sges.get(index);
		}

	}

	static final class RecordingRdma implements SVCPostSend.RdmaMod {

		private long remoteAddr;

		private int rkey;

		private int reserved;

		@Override
		public void setRemote_addr(long remote_addr) {
			this.remoteAddr = remote_addr;
		}

		@Override
		public long getRemote_addr() {
			return this.remoteAddr;
		}

		@Override
		public void setRkey(int rkey) {
			this.rkey = rkey;
		}

		@Override
		public int getRkey() {
			return this.rkey;
		}

		@Override
		public void setReserved(int reserved) {
			this.reserved = reserved;
		}

		@Override
		public int getReserved() {
			return this.reserved;
		}

	}

	static final class RecordingSge implements SVCPostSend.SgeMod {

		private long addr;

		private int length;

		private int lkey;

		@Override
		public void setAddr(long addr) {
			this.addr = addr;
		}

		@Override
		public long getAddr() {
			return this.addr;
		}

		@Override
		public void setLength(int length) {
			this.length = length;
		}

		@Override
		public int getLength() {
			return this.length;
		}

		@Override
		public void setLkey(int lkey) {
			this.lkey = lkey;
		}

		@Override
		public int getLkey() {
			return this.lkey;
		}

	}

}
