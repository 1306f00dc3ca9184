package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import java.lang.reflect.Constructor;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.impl.NatIbvRecvWR;
import com.ibm.disni.verbs.impl.NatIbvSendWR;
import com.ibm.disni.verbs.impl.NatIbvSge;
import com.ibm.disni.verbs.impl.NativeDispatcher;
import com.ibm.disni.verbs.impl.SockAddrIn;

/**
 * The JNI library's layouts agree with what DiSNI 2.1's Java side writes into and reads from
 * direct buffers (docs/hardware.md, "The JNI library"): DiSNI's classes carry the sizes and
 * offsets as constants, rdma-core's headers decide the real ones, and libdisni reports the
 * latter. Runs wherever the {@code disni} provider can (the interop lab's guest).
 */
@ExtendWith(DisniTestDevice.Available.class)
class LibdisniLayoutTest {

	private NativeDispatcher dispatcher;

	@BeforeEach
	void load() throws Exception {
		// Package-private in DiSNI; its constructor checks the JNI version, as RdmaVerbs does.
		Constructor<NativeDispatcher> constructor = NativeDispatcher.class.getDeclaredConstructor();
		constructor.setAccessible(true);
		this.dispatcher = constructor.newInstance();
	}

	@Test
	void theLibraryAnswersTheJniVersionDisni21Requires() {
		assertThat(this.dispatcher._getVersion()).isEqualTo(32);
	}

	@Test
	void receiveRequestsScatterGatherEntriesAndCompletionsHaveDisnisLayout() {
		assertThat(this.dispatcher._getIbvRecvWRSize()).isEqualTo(NatIbvRecvWR.CSIZE);
		assertThat(this.dispatcher._getIbvSgeSize()).isEqualTo(NatIbvSge.CSIZE);
		assertThat(this.dispatcher._getIbvWCSize()).isEqualTo(IbvWC.CSIZE);
	}

	@Test
	void sendRequestsHaveTheRdmaFieldsWhereDisniWritesThem() {
		assertThat(this.dispatcher._getRemoteAddressOffset()).isEqualTo(NatIbvSendWR.REMOTEADDR_OFFSET);
		assertThat(this.dispatcher._getRKeyOffset()).isEqualTo(NatIbvSendWR.RKEY_OFFSET);
		// rdma-core's struct grew past DiSNI's 72 bytes (memory-window binding, TSO). DiSNI lays
		// requests out 72 bytes apart and links them through next, and posting Sends, Writes
		// and Reads reads nothing past wr.rdma, so the stride is safe as long as it covers that.
		assertThat(this.dispatcher._getIbvSendWRSize()).isGreaterThanOrEqualTo(NatIbvSendWR.CSIZE);
		assertThat(NatIbvSendWR.CSIZE).isGreaterThanOrEqualTo(NatIbvSendWR.RKEY_OFFSET + Integer.BYTES);
	}

	@Test
	void addressesFitTheBufferDisniReservesForThem() {
		assertThat(this.dispatcher._getSockAddrInSize()).isLessThanOrEqualTo(SockAddrIn.CSIZE);
	}

	@Test
	void aFailingCallThrowsAnIOExceptionNamingTheVerbAndTheReason() {
		assertThatIOException().isThrownBy(() -> this.dispatcher._allocPd(0))
			.withMessage("libdisni ibv_alloc_pd: no device context");
		assertThatIOException().isThrownBy(() -> this.dispatcher._createId(0, (short) 0x0106))
			.withMessage("libdisni rdma_create_id: no event channel");
	}

}
